import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/config-error.js";
import { readMetricsConfig } from "../../src/config/env/metrics-config.js";

const TOKEN = "0123456789abcdef0123";

describe("readMetricsConfig", () => {
  it.each([
    ["nothing set: not served", {}, {}],
    ["blank values count as unset", { METRICS_TOKEN: " ", METRICS_PORT: "" }, {}],
    ["a token: the main port, behind it", { METRICS_TOKEN: TOKEN }, { token: TOKEN }],
    ["a port: its own listener on 127.0.0.1", { METRICS_PORT: "9464" }, { server: { port: 9464, host: "127.0.0.1" } }],
    [
      "a port and a host",
      { METRICS_PORT: "9464", METRICS_HOST: "0.0.0.0" },
      { server: { port: 9464, host: "0.0.0.0" } },
    ],
    ["port 0: any free port", { METRICS_PORT: "0" }, { server: { port: 0, host: "127.0.0.1" } }],
    [
      "both",
      { METRICS_TOKEN: TOKEN, METRICS_PORT: "9464" },
      { token: TOKEN, server: { port: 9464, host: "127.0.0.1" } },
    ],
  ])("%s", (_name, env, expected) => {
    expect(readMetricsConfig(env)).toEqual(expected);
  });

  it("reports every problem at once", () => {
    let error: unknown;
    try {
      readMetricsConfig({ METRICS_TOKEN: "short", METRICS_HOST: "0.0.0.0" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      "METRICS_TOKEN: must be at least 16 characters, without spaces (e.g. openssl rand -hex 32)",
      "METRICS_HOST: only used with METRICS_PORT (set METRICS_PORT for a metrics listener of its own)",
    ]);
  });

  it.each([
    ["not a number", { METRICS_PORT: "metrics" }, "METRICS_PORT: is not a port number (0-65535)"],
    ["out of range", { METRICS_PORT: "70000" }, "METRICS_PORT: is not a port number (0-65535)"],
    [
      "the app's own port",
      { METRICS_PORT: "8080", PORT: "8080" },
      "METRICS_PORT: 8080 is the app's own port (PORT); choose another, or use METRICS_TOKEN to serve /metrics there",
    ],
    [
      "the app's default port",
      { METRICS_PORT: "3000" },
      "METRICS_PORT: 3000 is the app's own port (PORT); choose another, or use METRICS_TOKEN to serve /metrics there",
    ],
  ])("refuses a port that is %s", (_name, env, problem) => {
    expect(() => readMetricsConfig(env)).toThrow(problem);
  });
});
