import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/config/config-error.js";
import { readEnvConfig, readEnvFilePath } from "../../../src/config/env/env-config.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";

/** A PEM-looking key as it is usually pasted into .env: on one line, with "\n" escapes. */
const ESCAPED_KEY = "-----BEGIN RSA PRIVATE KEY-----\\nMIIEowIBAAKCAQEAfakefakefake\\n-----END RSA PRIVATE KEY-----\\n";
const KEY = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAfakefakefake\n-----END RSA PRIVATE KEY-----\n";
const WEBHOOK_SECRET = "webhook-secret-123";

/** The problems a bad environment is rejected with; fails the test if it is accepted. */
function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    readEnvConfig(env as NodeJS.ProcessEnv);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error("expected readEnvConfig to reject this environment");
}

afterAll(removeTempDirs);

describe("readEnvConfig", () => {
  it("runs with sensible defaults when nothing is set, waiting to be registered as an App", () => {
    const config = readEnvConfig({});

    expect(config.port).toBe(3000);
    expect(config.host).toBe("localhost");
    expect(config.dataDir).toBe("./.data");
    expect(config.webhookPath).toBe("/api/github/webhooks");
    expect(config.logLevel).toBe("info");
    expect(config.agent).toEqual({
      name: "claude",
      verifier: "claude",
      roles: { reviewer: { name: "claude" }, fixer: { name: "claude" }, verifier: { name: "claude" } },
      fromRepo: false,
      timeoutMs: 15 * 60_000,
      model: undefined,
      extraArgs: [],
      maxOutputTokens: 32_000,
      serverTools: false,
      sessionMaxTokens: 100_000,
      cacheTtlMs: 300_000,
      fake: {},
      sandbox: "bubblewrap",
      homeDir: "./.data/agents",
      limits: { maxProcesses: 512, maxMemoryMb: 4096, maxFileMb: 1024, maxWorkspaceMb: 2048 },
      stateMaxBytes: 8 * 1024 * 1024,
      anthropic: {},
      openai: {},
      gemini: {},
      opencode: { provider: "anthropic" },
    });
    expect(config.workerConcurrency).toBe(2);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.github).toEqual({
      webOrigin: "https://github.com",
      host: "github.com",
      protocol: "https",
      gitHosts: ["github.com"],
    });
    expect(config.web).toEqual({ oauth: undefined, admins: [] });
    expect(config.production).toBe(false);
    expect(config.app).toBeUndefined();
    expect(config.secrets).toEqual([]);
  });

  it("treats blank values like unset ones", () => {
    const config = readEnvConfig({ PORT: "", APP_ID: "  ", DATABASE_URL: "" });
    expect(config.port).toBe(3000);
    expect(config.app).toBeUndefined();
    expect(config.databaseUrl).toBeUndefined();
  });

  it("reads LOG_FORMAT: pretty, json, or auto by default (test/logging/log-format.test.ts)", () => {
    expect(readEnvConfig({ LOG_FORMAT: "pretty" }).logFormat).toBe("pretty");
    expect(readEnvConfig({}).logFormat).toBe("auto");
  });

  it("sets up the App from APP_ID, PRIVATE_KEY with \\n escapes, and WEBHOOK_SECRET", () => {
    const config = readEnvConfig({ APP_ID: "12345", PRIVATE_KEY: ESCAPED_KEY, WEBHOOK_SECRET, AGENT: "fake" });
    expect(config.app).toEqual({ appId: 12345, privateKey: KEY, webhookSecret: WEBHOOK_SECRET });
  });

  it("reads the private key from PRIVATE_KEY_PATH", () => {
    const path = join(tempDir(), "app.pem");
    writeFileSync(path, KEY);
    const config = readEnvConfig({ APP_ID: "7", PRIVATE_KEY_PATH: path, WEBHOOK_SECRET, AGENT: "fake" });
    expect(config.app?.privateKey).toBe(KEY);
  });

  it("prefers PRIVATE_KEY over PRIVATE_KEY_PATH", () => {
    const config = readEnvConfig({
      APP_ID: "7",
      PRIVATE_KEY: ESCAPED_KEY,
      PRIVATE_KEY_PATH: "/does/not/exist.pem",
      WEBHOOK_SECRET,
      AGENT: "fake",
    });
    expect(config.app?.privateKey).toBe(KEY);
  });

  it("reports every problem at once, in one throw", () => {
    const problems = problemsOf({
      PORT: "70000",
      DATABASE_URL: "mysql://db/app",
      APP_ID: "12345",
      AGENT_TIMEOUT: "soon",
      LOG_LEVEL: "loud",
    });

    expect(problems).toEqual([
      expect.stringMatching(/^PORT: "70000" is not a port number/),
      expect.stringMatching(/^DATABASE_URL: must start with postgres:\/\//),
      expect.stringMatching(/^LOG_LEVEL: /),
      expect.stringMatching(/^AGENT_TIMEOUT: "soon" is not a duration/),
      expect.stringMatching(/^PRIVATE_KEY or PRIVATE_KEY_PATH: required when APP_ID is set/),
      expect.stringMatching(/^WEBHOOK_SECRET: required when APP_ID is set/),
    ]);
  });

  it("still asks for the key and secret when APP_ID itself is malformed", () => {
    const problems = problemsOf({ APP_ID: "my-app" });
    expect(problems).toEqual([
      "APP_ID: must be the numeric App ID",
      expect.stringMatching(/^PRIVATE_KEY or PRIVATE_KEY_PATH: required/),
      expect.stringMatching(/^WEBHOOK_SECRET: required/),
    ]);
  });

  it("reads PUBLIC_URL (trailing slashes dropped) and WEBHOOK_PROXY_URL; refuses what is not an http(s) URL", () => {
    const config = readEnvConfig({
      PUBLIC_URL: "https://review.example.com/",
      WEBHOOK_PROXY_URL: "https://smee.io/abc",
    });
    expect(config.publicUrl).toBe("https://review.example.com");
    expect(config.webhookProxyUrl).toBe("https://smee.io/abc");
    expect(readEnvConfig({}).publicUrl).toBeUndefined();
    expect(problemsOf({ PUBLIC_URL: "review.example.com", WEBHOOK_PROXY_URL: "smee.io/abc" })).toEqual([
      "WEBHOOK_PROXY_URL: must be an http(s) URL, e.g. a smee.io channel (https://smee.io/new makes one)",
      "PUBLIC_URL: must be the http(s) URL where GitHub reaches this app, e.g. https://no-mistakes.example.com",
    ]);
  });

  it("takes PORT=0 as: let the system pick a free port", () => {
    expect(readEnvConfig({ PORT: "0" }).port).toBe(0);
  });

  it("puts every problem in the error message too, one per line", () => {
    expect(() => readEnvConfig({ PORT: "x", WORKER_CONCURRENCY: "0" })).toThrow(
      /The environment is invalid:\n {2}- PORT: .*\n {2}- WORKER_CONCURRENCY: "0" is not a positive whole number/,
    );
  });

  it.each([
    ["PORT", "-1", /^PORT: "-1" is not a port number/],
    ["PORT", "80.5", /^PORT: "80.5" is not a port number/],
    ["WORKER_CONCURRENCY", "two", /^WORKER_CONCURRENCY: "two" is not a positive whole number/],
    ["AGENT", "gpt", /^AGENT: /],
    ["GHE_PROTOCOL", "ftp", /^GHE_PROTOCOL: /],
    ["PRIVATE_KEY", "not-a-pem-key", /^PRIVATE_KEY: is not a PEM private key/],
    ["PRIVATE_KEY_PATH", "/does/not/exist.pem", /^PRIVATE_KEY_PATH: cannot read "\/does\/not\/exist.pem"/],
  ])("rejects %s=%s", (name, value, problem) => {
    expect(problemsOf({ [name]: value })).toEqual([expect.stringMatching(problem)]);
  });

  it.each([
    ["900", 900_000],
    ["90s", 90_000],
    ["15m", 900_000],
    ["1h", 3_600_000],
    ["1.5m", 90_000],
    ["250ms", 250],
    [undefined, 900_000],
  ])("reads AGENT_TIMEOUT=%s as %i ms", (value, ms) => {
    expect(readEnvConfig({ AGENT_TIMEOUT: value }).agent.timeoutMs).toBe(ms);
  });

  it.each([
    [undefined, 60_000],
    ["", 60_000],
    ["2s", 2_000],
    ["5m", 300_000],
    ["off", null],
    [" OFF ", null],
  ])("reads WORKER_IDLE_EXIT=%s as %s (null: the worker process runs all along)", (value, ms) => {
    expect(readEnvConfig({ WORKER_IDLE_EXIT: value }).workerIdleExitMs).toBe(ms);
  });

  it("refuses a WORKER_IDLE_EXIT that is neither a duration nor off", () => {
    expect(problemsOf({ WORKER_IDLE_EXIT: "never" })).toEqual([
      expect.stringMatching(/^WORKER_IDLE_EXIT: "never" is not a duration/),
    ]);
  });

  it("in production without an App: the setup flow runs, as without NODE_ENV (the image registers its App itself)", () => {
    const config = readEnvConfig({ NODE_ENV: "production", AGENT: "claude" });
    expect(config.production).toBe(true);
    expect(config.app).toBeUndefined();
  });

  it("refuses a worker without an App: the setup flow is a web process's", () => {
    expect(problemsOf({ ROLE: "worker", DATABASE_URL: "postgres://u:p@db:5432/nm" })).toEqual([
      expect.stringMatching(
        /^APP_ID: required with ROLE=worker \(register the App through the setup flow of a web process/,
      ),
    ]);
  });

  it("ENV_FILE: .env in the working directory unless set; read before the rest, and kept in the config", () => {
    expect(readEnvFilePath({})).toBe(".env");
    expect(readEnvFilePath({ ENV_FILE: " " })).toBe(".env");
    expect(readEnvFilePath({ ENV_FILE: "/data/.env" })).toBe("/data/.env");
    expect(readEnvConfig({ ENV_FILE: "/data/.env" }).envFile).toBe("/data/.env");
  });

  it("refuses the unscripted fake agent in production", () => {
    expect(
      problemsOf({ NODE_ENV: "production", APP_ID: "1", PRIVATE_KEY: KEY, WEBHOOK_SECRET, AGENT: "fake" }),
    ).toEqual([expect.stringMatching(/^AGENT: the fake agent is for tests and demos/)]);
  });

  it.each([
    [{}, /^ANTHROPIC_API_KEY: required with AGENT=claude/],
    [{ AGENT: "claude" }, /^ANTHROPIC_API_KEY: required with AGENT=claude/],
    [{ AGENT: "codex" }, /^OPENAI_API_KEY: required with AGENT=codex/],
    [{ AGENT: "opencode" }, /^OPENCODE_API_KEY: required with AGENT=opencode/],
    [{ AGENT: "claude", ANTHROPIC_API_KEY: "sk-ant-x", VERIFIER_AGENT: "opencode" }, /^OPENCODE_API_KEY: required/],
  ])("with an App, %j needs the agent's model key", (env, problem) => {
    expect(problemsOf({ APP_ID: "1", PRIVATE_KEY: KEY, WEBHOOK_SECRET, ...env })).toEqual([
      expect.stringMatching(problem),
    ]);
  });

  it("gives each role its agent and model: its own settings, else AGENT and (for AGENT's CLI) AGENT_MODEL", () => {
    const config = readEnvConfig({
      AGENT: "claude",
      AGENT_MODEL: "opus",
      FIXER_AGENT: "codex",
      FIXER_MODEL: "gpt-5.5-codex",
      VERIFIER_AGENT: "claude",
      VERIFIER_MODEL: "sonnet",
    });
    expect(config.agent.roles).toEqual({
      reviewer: { name: "claude", model: "opus" },
      fixer: { name: "codex", model: "gpt-5.5-codex" },
      verifier: { name: "claude", model: "sonnet" },
    });
    expect(readEnvConfig({ AGENT: "codex", REVIEWER_AGENT: "claude" }).agent.roles).toEqual({
      reviewer: { name: "claude" },
      fixer: { name: "codex" },
      verifier: { name: "codex" },
    });
    expect(problemsOf({ REVIEWER_AGENT: "gpt" })).toEqual([
      expect.stringMatching(/^REVIEWER_AGENT: .*"fake".*"claude".*"codex"/),
    ]);
  });

  it.each([
    [
      { AGENT: "claude", FIXER_AGENT: "codex", ANTHROPIC_API_KEY: "sk-ant-key-1" },
      [/^OPENAI_API_KEY: required with FIXER_AGENT=codex \(the key Codex uses/],
    ],
    [
      { AGENT: "fake", FAKE_AGENT_SCENARIO: "s.json", REVIEWER_AGENT: "claude", VERIFIER_AGENT: "claude" },
      [/^ANTHROPIC_API_KEY: required with REVIEWER_AGENT=claude and VERIFIER_AGENT=claude /],
    ],
    [
      { AGENT: "codex", REVIEWER_AGENT: "claude" },
      [/^ANTHROPIC_API_KEY: required with REVIEWER_AGENT=claude /, /^OPENAI_API_KEY: required with AGENT=codex /],
    ],
  ])("with an App, every CLI a role runs needs its key: %j", (env, problems) => {
    expect(problemsOf({ APP_ID: "1", PRIVATE_KEY: KEY, WEBHOOK_SECRET, ...env })).toEqual(
      problems.map((p) => expect.stringMatching(p)),
    );
  });

  it("reads OpenCode's provider, key and upstream; a keyless server of the team's own needs only its URL", () => {
    const config = readEnvConfig({
      APP_ID: "1",
      PRIVATE_KEY: KEY,
      WEBHOOK_SECRET,
      AGENT: "opencode",
      OPENCODE_PROVIDER: "openai",
      OPENCODE_BASE_URL: "http://vllm.internal:8000/v1",
      AGENT_MODEL: "qwen3-coder",
    });
    expect(config.agent.opencode).toEqual({
      provider: "openai",
      apiKey: undefined,
      baseUrl: "http://vllm.internal:8000/v1",
    });
    expect(problemsOf({ OPENCODE_PROVIDER: "gemini" })).toEqual([expect.stringMatching(/^OPENCODE_PROVIDER/)]);
  });

  it("needs no model key before the App is registered (setup mode)", () => {
    expect(readEnvConfig({}).agent.name).toBe("claude");
  });

  it("runs in production with an App and a real agent", () => {
    const config = readEnvConfig({
      NODE_ENV: "production",
      APP_ID: "1",
      PRIVATE_KEY: KEY,
      WEBHOOK_SECRET,
      AGENT: "codex",
      OPENAI_API_KEY: "sk-test-openai-key",
    });
    expect(config.production).toBe(true);
    expect(config.agent.name).toBe("codex");
  });

  it.each([
    [
      { GHE_HOST: "ghe.example.com", GHE_PROTOCOL: "http" },
      {
        baseUrl: "http://ghe.example.com/api/v3",
        webOrigin: "http://ghe.example.com",
        host: "ghe.example.com",
        protocol: "http",
        gitHosts: ["ghe.example.com"],
      },
    ],
    [
      { GHE_HOST: "ghe.example.com" },
      {
        baseUrl: "https://ghe.example.com/api/v3",
        webOrigin: "https://ghe.example.com",
        host: "ghe.example.com",
        protocol: "https",
        gitHosts: ["ghe.example.com"],
      },
    ],
    [{}, { webOrigin: "https://github.com", host: "github.com", protocol: "https", gitHosts: ["github.com"] }],
    [
      { GIT_TRUSTED_HOSTS: "mirror.corp, 10.0.0.5:8080" },
      {
        webOrigin: "https://github.com",
        host: "github.com",
        protocol: "https",
        gitHosts: ["github.com", "mirror.corp", "10.0.0.5:8080"],
      },
    ],
  ])("points GitHub at %j", (env, github) => {
    expect(readEnvConfig(env).github).toEqual(github);
  });

  it("reads the run view's sign-in (both OAuth values or none) and WEB_ADMINS; the client secret is redacted", () => {
    const config = readEnvConfig({
      GITHUB_CLIENT_ID: "Iv23liClient",
      GITHUB_CLIENT_SECRET: "client-secret-0123456789",
      WEB_ADMINS: "583231, 9919  7001",
    });
    expect(config.web).toEqual({
      oauth: { clientId: "Iv23liClient", clientSecret: "client-secret-0123456789" },
      admins: [583231, 9919, 7001],
    });
    expect(config.secrets).toContain("client-secret-0123456789");
    expect(readEnvConfig({ GITHUB_CLIENT_ID: "Iv23liClient" }).web.oauth).toBeUndefined();
  });

  // A login can be renamed and then claimed by anyone: operators are named by the id GitHub never reuses.
  it("refuses a login in WEB_ADMINS, saying how to find the person's id", () => {
    expect(problemsOf({ WEB_ADMINS: "583231, Alice, 0, 12x" })).toEqual([
      expect.stringMatching(/^WEB_ADMINS: .*user ids.*"Alice", "0", "12x".*https:\/\/api\.github\.com\/users\/Alice/),
    ]);
  });

  it("reads the agent settings", () => {
    const config = readEnvConfig({
      AGENT: "claude",
      AGENT_MODEL: "opus",
      AGENT_ARGS: "  --verbose   --max-turns 5 ",
      FAKE_AGENT_SCENARIO: "s.json",
      FAKE_AGENT_HOME: "home",
      FAKE_AGENT_LOG: "fake.log",
      AGENT_CLI: "/opt/claude",
      AGENT_SANDBOX: "off",
      VERIFIER_AGENT: "codex",
      AGENT_STATE_MAX_BYTES: "1000",
      DATA_DIR: "/var/nm/",
      ANTHROPIC_API_KEY: "sk-ant-test-key-123",
      ANTHROPIC_BASE_URL: "http://127.0.0.1:9999",
      OPENAI_API_KEY: "sk-openai-test-key",
      AGENT_MAX_PROCESSES: "100",
      AGENT_MAX_MEMORY_MB: "2048",
      AGENT_MAX_FILE_MB: "64",
      AGENT_MAX_WORKSPACE_MB: "500",
      AGENT_MAX_OUTPUT_TOKENS: "8000",
      AGENT_SERVER_TOOLS: "on",
    });
    expect(config.agent).toEqual({
      name: "claude",
      verifier: "codex",
      // AGENT_MODEL is a model of AGENT's provider: the verifier's Codex runs its own default
      roles: {
        reviewer: { name: "claude", model: "opus" },
        fixer: { name: "claude", model: "opus" },
        verifier: { name: "codex" },
      },
      fromRepo: false,
      timeoutMs: 900_000,
      model: "opus",
      extraArgs: ["--verbose", "--max-turns", "5"],
      maxOutputTokens: 8000,
      serverTools: true,
      sessionMaxTokens: 100_000,
      cacheTtlMs: 300_000,
      fake: { scenario: "s.json", home: "home", log: "fake.log" },
      cli: "/opt/claude",
      sandbox: "off",
      homeDir: "/var/nm/agents",
      limits: { maxProcesses: 100, maxMemoryMb: 2048, maxFileMb: 64, maxWorkspaceMb: 500 },
      stateMaxBytes: 1000,
      anthropic: { apiKey: "sk-ant-test-key-123", baseUrl: "http://127.0.0.1:9999" },
      openai: { apiKey: "sk-openai-test-key", baseUrl: undefined },
      gemini: {},
      opencode: { provider: "anthropic", apiKey: undefined, baseUrl: undefined },
    });
  });

  it("lists every secret value so logs can redact them", () => {
    const config = readEnvConfig({
      APP_ID: "1",
      PRIVATE_KEY: ESCAPED_KEY,
      WEBHOOK_SECRET,
      ANTHROPIC_API_KEY: "sk-ant-api03-abcdefgh",
      DATABASE_URL: "postgres://app:hunter22@db/app",
      PORT: "8080",
    });
    expect(config.secrets).toEqual(
      expect.arrayContaining([KEY, WEBHOOK_SECRET, "sk-ant-api03-abcdefgh", "postgres://app:hunter22@db/app"]),
    );
    expect(config.secrets).not.toContain("8080");
  });
});
