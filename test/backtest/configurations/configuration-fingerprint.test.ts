import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { appCodeIdentity } from "../../../src/backtest/configurations/app-code-identity.js";
import {
  agentSettings,
  configurationFingerprint,
  type FingerprintInputs,
} from "../../../src/backtest/configurations/configuration-fingerprint.js";
import { readEnvConfig } from "../../../src/config/env/env-config.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";

afterAll(() => removeTempDirs());

/** A configuration as the app resolves it: AGENT=claude with a model, from the process's .env and its own --env. */
const SETTINGS = agentSettings(
  readEnvConfig({ AGENT: "claude", AGENT_MODEL: "claude-sonnet-4-5", ANTHROPIC_API_KEY: "sk-ant-one", DATA_DIR: "/d" }),
);
const BASE: FingerprintInputs = {
  agent: SETTINGS,
  env: { AGENT: "claude", ANTHROPIC_API_KEY: "sk-ant-one" },
  configText: 'review:\n  instructions: "be strict"\n',
  scenario: null,
  branch: "HEAD",
  replay: false,
  maxPushes: null,
  repoName: "acme/widgets",
  app: "a".repeat(64),
};

describe("configurationFingerprint", () => {
  it.each<[string, Partial<FingerprintInputs>]>([
    ["the agent", { agent: { ...SETTINGS, name: "codex" } }],
    ["the model", { agent: { ...SETTINGS, model: "claude-opus-4-1" } }],
    ["the agent's arguments", { agent: { ...SETTINGS, args: ["--effort", "high"] } }],
    ["a budget set in the process's .env", { agent: { ...SETTINGS, sessionMaxTokens: 123_456 } }],
    [
      "a setting of the configuration's own (a budget: no secret)",
      { env: { ...BASE.env, AGENT_MAX_OUTPUT_TOKENS: "8000" } },
    ],
    ["the config the reviews read", { configText: 'review:\n  instructions: "be stricter"\n' }],
    ["no config at all", { configText: null }],
    ["the fake agent's script", { scenario: "{}" }],
    ["--branch", { branch: "main" }],
    ["--replay", { replay: true }],
    ["--max-pushes", { maxPushes: 3 }],
    ["the repository's name the prompt carries", { repoName: "acme/gadgets" }],
    ["the app's code", { app: "b".repeat(64) }],
  ])("changes with %s", (_, change) => {
    expect(configurationFingerprint({ ...BASE, ...change })).not.toBe(configurationFingerprint(BASE));
  });

  it("leaves secrets' values out, and does not depend on the order things were given in", () => {
    expect(configurationFingerprint({ ...BASE, env: { ...BASE.env, ANTHROPIC_API_KEY: "sk-ant-two" } })).toBe(
      configurationFingerprint(BASE),
    );
    const reversed = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).reverse()) as T;
    expect(
      configurationFingerprint({
        ...reversed(BASE),
        agent: reversed(SETTINGS),
        env: { ANTHROPIC_API_KEY: "x", AGENT: "claude" },
      }),
    ).toBe(configurationFingerprint(BASE));
  });
});

describe("appCodeIdentity", () => {
  /** A code root laid out as src/ is, with a package.json beside it. */
  function app(files: Record<string, string>, version = "1.0.0") {
    const root = tempDir("nm-app-identity-");
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(root, "src", path)), { recursive: true });
      writeFileSync(join(root, "src", path), content);
    }
    writeFileSync(
      join(root, "package.json"),
      JSON.stringify({ version, scripts: { x: "y" }, dependencies: { "@anthropic-ai/claude-code": "2.1.197" } }),
    );
    return appCodeIdentity(join(root, "src"), join(root, "package.json"));
  }
  const FILES = {
    "pipeline/review/build-review-prompt.ts": "export const P = 'Review this.';",
    "agents/claude-code.ts": "export const A = 1;",
    "web/pages/home.ts": "export const H = '<h1>';",
    "index.ts": "main();",
  };

  it("changes with the reviewing code, a new file in it, the app's version", () => {
    const one = app(FILES);
    expect(app(FILES)).toBe(one);
    expect(
      app({ ...FILES, "pipeline/review/build-review-prompt.ts": "export const P = 'Review this closely.';" }),
    ).not.toBe(one);
    expect(app({ ...FILES, "agents/codex.ts": "export const C = 1;" })).not.toBe(one);
    expect(app(FILES, "1.1.0")).not.toBe(one);
  });

  it("stays the same when only code a backtest never loads changes (the web pages, the entry point)", () => {
    const one = app(FILES);
    expect(app({ ...FILES, "web/pages/home.ts": "export const H = '<h2>';", "index.ts": "main(); // started" })).toBe(
      one,
    );
  });
});
