import { Writable } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import { readEnvConfig } from "../../src/config/env/env-config.js";
import { ConfigError } from "../../src/config/config-error.js";
import { createLogger } from "../../src/logging/create-logger.js";
import { REDACTED } from "../../src/logging/redact-secrets.js";
import { resolveLogFormat } from "../../src/logging/resolve-log-format.js";

/** Probot's types narrow LOG_FORMAT to its own two values; these tests pass what an operator might write. */
const env = (values: Record<string, string>) => values as unknown as NodeJS.ProcessEnv;

const SECRET = "s3cr3t-webhook-value";

function sink() {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { destination, text: () => chunks.join("") };
}

describe("LOG_FORMAT", () => {
  it.each([
    [undefined, "auto"],
    ["", "auto"],
    ["auto", "auto"],
    ["pretty", "pretty"],
    ["json", "json"],
  ])("LOG_FORMAT=%j reads as %s", (value, expected) => {
    expect(readEnvConfig(env(value === undefined ? {} : { LOG_FORMAT: value })).logFormat).toBe(expected);
  });

  it("names LOG_FORMAT when its value is none of pretty, json, auto", () => {
    let problems: string[] = [];
    try {
      readEnvConfig(env({ LOG_FORMAT: "fancy" }));
    } catch (error) {
      problems = (error as ConfigError).problems;
    }
    expect(problems).toEqual([expect.stringMatching(/^LOG_FORMAT: .*pretty/)]);
  });

  it.each([
    ["auto", true, "pretty"],
    ["auto", false, "json"],
    ["auto", undefined, "json"], // stdout is a pipe or a file
    ["pretty", false, "pretty"],
    ["pretty", undefined, "pretty"],
    ["json", true, "json"],
  ] as const)("%s with a terminal %s writes %s", (format, isTTY, expected) => {
    expect(resolveLogFormat(format, isTTY)).toBe(expected);
  });
});

describe("createLogger's output", () => {
  it("json: one JSON object per line", () => {
    const out = sink();
    const log = createLogger({ level: "info", destination: out.destination, format: "json" });
    log.info({ runId: 7 }, "review posted");
    expect(JSON.parse(out.text())).toMatchObject({ level: 30, runId: 7, msg: "review posted" });
  });

  it("pretty: one readable line per event, fields inline, no pid or hostname", async () => {
    const out = sink();
    const log = createLogger({ level: "info", destination: out.destination, format: "pretty", colorize: false });
    log.info({ runId: 7, role: "reviewer" }, "review posted");
    await vi.waitFor(() => expect(out.text()).toContain("review posted"));

    const lines = out.text().split("\n").filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: review posted \{"runId":7,"role":"reviewer"\}$/);
    expect(lines[0]).not.toContain("pid");
    expect(() => JSON.parse(lines[0]!) as unknown).toThrow();
  });

  it("pretty: a secret stays redacted — by key, by value and by token shape", async () => {
    const out = sink();
    const log = createLogger({
      level: "info",
      secrets: [SECRET],
      destination: out.destination,
      format: "pretty",
      colorize: false,
    });
    const token = `ghs_${"A1b2C3d4E5".repeat(3)}`;
    log.info(
      { secret: "by-key-secret-value", note: `value ${SECRET}`, headers: { authorization: "x" } },
      `got ${token}`,
    );
    log.error({ err: new Error(`failed with ${SECRET}`) }, "failed");
    await vi.waitFor(() => expect(out.text()).toContain("failed"));

    const text = out.text();
    expect(text).toContain(REDACTED);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain("by-key-secret-value");
    expect(text).not.toContain(token);
    expect(text).toContain("INFO: got [redacted]");
  });
});
