// The env room: the operator's environment, read once at start. env-config (this file) parses every variable
// (env-schema) into one EnvConfig, reporting every problem in one ConfigError; beside it, the agents' roles and
// keys, their defaults (session budget, cache TTL, turn limits), the metrics and redelivery settings, the
// private key, and the start-up checks (data dir, port, private key, .env file) that index.ts and doctor run.
// It imports only src/domain and config's top; the repository's own .github/no-mistakes.yml is the repo room's.
import type { EgressRule } from "../../domain/egress-rule.js";
import { ConfigError } from "../config-error.js";
import { AGENT_NAMES as AGENTS, missingAgentKeys, readAgentRoles, type AgentRoles } from "./agent-roles.js";
import { envSchema, type LOG_FORMATS, type LOG_LEVELS, type ParsedEnv } from "./env-schema.js";
import { readMetricsConfig, type MetricsConfig } from "./metrics-config.js";
import { readPrivateKey } from "./read-private-key.js";
import { readRedeliverConfig, type RedeliverConfig } from "./redeliver-config.js";
import type { TurnLimits } from "./turn-limits.js";

export type EnvConfig = {
  /** `undefined` until the app is registered: the server then runs GitHub's setup (manifest) flow. */
  app?: { appId: number; privateKey: string; webhookSecret: string };
  webhookPath: string;
  /** A smee.io channel GitHub delivers to; the app forwards its messages to its own webhook path. */
  webhookProxyUrl?: string;
  /** Where GitHub reaches this app (PUBLIC_URL, no trailing slash): the webhook URL is this plus `webhookPath`. */
  publicUrl?: string;
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  /** The embedded database's shared buffers (its page cache), in MB: EMBEDDED_DB_BUFFERS_MB. */
  embeddedBuffersMb: number;
  /** The most a PR's checked-out tree may take on disk (WORKSPACE_MAX_MB), in bytes. */
  workspaceMaxBytes: number;
  logLevel: (typeof LOG_LEVELS)[number];
  /** `pretty`: one readable line per event; `json`: one JSON object per line; `auto`: pretty on a terminal, else JSON. */
  logFormat: (typeof LOG_FORMATS)[number];
  agent: {
    /** AGENT: the roles' agent unless one names its own. */
    name: (typeof AGENTS)[number];
    /** Who checks a fixer's claims in a fresh session (VERIFIER_AGENT; default: the same as `name`). */
    verifier: (typeof AGENTS)[number];
    /** Each role's agent and model (REVIEWER_/FIXER_/VERIFIER_AGENT and _MODEL; default AGENT and AGENT_MODEL). */
    roles: AgentRoles;
    /** Repositories may choose their roles' agents in `.github/no-mistakes.yml` (`agents:`; AGENTS_FROM_REPO=on). */
    fromRepo: boolean;
    timeoutMs: number;
    model?: string;
    extraArgs: string[];
    /** The model proxy lowers every request's output cap to this (AGENT_MAX_OUTPUT_TOKENS). */
    maxOutputTokens: number;
    /** A session past this many input tokens (its largest request) rolls over (AGENT_SESSION_MAX_TOKENS). */
    sessionMaxTokens: number;
    /** How long the provider's prompt cache keeps an entry (AGENT_CACHE_TTL). */
    cacheTtlMs: number;
    /** The model proxy lets server-side tools (web search/fetch, code execution, MCP) through (AGENT_SERVER_TOOLS=on). */
    serverTools: boolean;
    fake: { scenario?: string; home?: string; log?: string };
    /** Path of the agent CLI; default: the pinned one in node_modules/.bin. */
    cli?: string;
    /** `bubblewrap` confines every agent call; `off` is the operator's explicit opt-out. */
    sandbox: "bubblewrap" | "off";
    /** What one sandboxed turn may use (AGENT_MAX_PROCESSES, _MEMORY_MB, _FILE_MB, _WORKSPACE_MB). */
    limits: TurnLimits;
    /** The per-(run, role) CLI homes (CLAUDE_CONFIG_DIR, CODEX_HOME) live under here. */
    homeDir: string;
    /** Exported session state larger than this (gzip) is not stored. */
    stateMaxBytes: number;
    anthropic: { apiKey?: string; baseUrl?: string };
    openai: { apiKey?: string; baseUrl?: string };
    gemini: { apiKey?: string; baseUrl?: string };
    /** OpenCode's provider: its API (Anthropic Messages or OpenAI-compatible chat completions), key and upstream. */
    opencode: { provider: "anthropic" | "openai"; apiKey?: string; baseUrl?: string };
  };
  workerConcurrency: number;
  /**
   * Running repositories' own commands (setup, checks, reproducers) in the sandbox: CHECKS=off never does;
   * a setup reaches only CHECKS_REGISTRIES; at most CHECKS_CONCURRENCY at once per worker; setups' results
   * cached up to CHECKS_CACHE_MB on the worker's disk.
   */
  checks: { enabled: boolean; registries: EgressRule[]; concurrency: number; cacheBytes: number };
  /** `web` answers webhooks (journal, intake); `worker` runs agent turns and commands; `all` does both. */
  role: "all" | "web" | "worker";
  /**
   * With ROLE=all: `process` runs the workers in a child process of their own (the webhook thread does
   * no review work); `inline` runs them in this process.
   */
  workers: "process" | "inline";
  /**
   * With WORKERS=process: the worker process exits after this long with nothing to do (no job running,
   * waiting or retrying) and is started again when a job is queued or the delivery sweep is due; `null`
   * (WORKER_IDLE_EXIT=off) keeps it running all along.
   */
  workerIdleExitMs: number | null;
  /** On SIGTERM, how long running turns may go on before they are stopped and handed back to the queue. */
  stopGraceMs: number;
  /** Where /metrics is served (METRICS_TOKEN, METRICS_PORT, METRICS_HOST); nowhere by default. */
  metrics: MetricsConfig;
  /** The sweep that redelivers failed webhook deliveries (REDELIVER_INTERVAL). */
  redeliver: RedeliverConfig;
  /** `webOrigin`: where people open GitHub's pages (https://github.com, or the GHE host's origin). */
  github: { baseUrl?: string; webOrigin: string; host: string; protocol: "https" | "http"; gitHosts: string[] };
  /**
   * The run view's sign-in (the App's OAuth client, GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET, which the
   * setup flow saves): undefined when either is missing, and the pages then say how to turn it on.
   */
  /** `admins`: WEB_ADMINS, the GitHub user ids of the operators. */
  web: { oauth?: { clientId: string; clientSecret: string }; admins: number[] };
  production: boolean;
  /** The .env file read at start (ENV_FILE, default .env in the working directory); the setup flow saves the new App there. */
  envFile: string;
  /** Every secret value found in the environment, for log and output redaction. */
  secrets: string[];
};

/** Where the app will write and listen (DATA_DIR, HOST, PORT); undefined for a value readEnvConfig rejects. */
export function readPlaces(env: NodeJS.ProcessEnv = process.env): { dataDir?: string; host?: string; port?: number } {
  const { DATA_DIR, HOST, PORT } = envSchema.shape;
  return {
    dataDir: DATA_DIR.safeParse(env.DATA_DIR).data,
    host: HOST.safeParse(env.HOST).data,
    port: PORT.safeParse(env.PORT).data,
  };
}

/**
 * The .env file the app reads at start, before the rest of the environment is parsed (ENV_FILE, itself read
 * from the environment; default .env in the working directory).
 */
export function readEnvFilePath(env: NodeJS.ProcessEnv = process.env): string {
  return envSchema.shape.ENV_FILE.parse(env.ENV_FILE);
}

/** Parses the environment once; every problem is reported together, in words a newcomer understands. */
export function readEnvConfig(env: NodeJS.ProcessEnv = process.env): EnvConfig {
  const { e, invalid, problems } = parseEachVariable(env);
  const { app, privateKey } = readApp(e, invalid, env, problems);
  const roles = readAgentRoles(e);
  if (app) problems.push(...missingAgentKeys(e, roles, env));
  const production = e.NODE_ENV === "production";
  if (e.AGENT === "fake" && production && !e.FAKE_AGENT_SCENARIO) {
    problems.push("AGENT: the fake agent is for tests and demos; set AGENT=claude or AGENT=codex in production");
  }
  const metrics = collect(() => readMetricsConfig(env), problems);
  const redeliver = collect(() => readRedeliverConfig(env), problems);
  if (e.ROLE !== "all" && !e.DATABASE_URL && !invalid.has("ROLE")) {
    problems.push(
      `ROLE: "${e.ROLE}" needs DATABASE_URL (web and worker processes share one PostgreSQL; the embedded database serves one process, ROLE=all)`,
    );
  }
  if (problems.length > 0) throw new ConfigError("The environment", problems);
  return {
    app,
    ...readServer(e),
    ...readStorage(e),
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    agent: readAgent(e, roles),
    workerConcurrency: e.WORKER_CONCURRENCY,
    checks: readChecks(e),
    ...readWorkers(e),
    metrics: metrics!,
    redeliver: redeliver!,
    github: readGitHub(e),
    web: readWeb(e),
    production,
    envFile: e.ENV_FILE,
    secrets: readSecrets(e, env, privateKey, metrics!.token),
  };
}

/**
 * Each variable parsed on its own, so that one bad value does not hide the cross-variable checks after
 * it (APP_ID without a key, production without APP_ID): all are reported in one throw.
 */
function parseEachVariable(env: NodeJS.ProcessEnv): { e: ParsedEnv; invalid: Set<string>; problems: string[] } {
  const problems: string[] = [];
  const invalid = new Set<string>();
  const values: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(envSchema.shape)) {
    const result = schema.safeParse(env[key]);
    if (result.success) {
      values[key] = result.data;
    } else {
      invalid.add(key);
      problems.push(...result.error.issues.map((issue) => `${key}: ${issue.message}`));
    }
  }
  return { e: values as ParsedEnv, invalid, problems };
}

/**
 * The registered App (APP_ID, its private key, WEBHOOK_SECRET), or undefined before it is; what is missing
 * or wrong goes to `problems`.
 */
function readApp(
  e: ParsedEnv,
  invalid: Set<string>,
  env: NodeJS.ProcessEnv,
  problems: string[],
): { app: EnvConfig["app"]; privateKey?: string } {
  const configuredKey = readPrivateKey(env);
  const privateKey = configuredKey.key;
  if (configuredKey.problem) problems.push(configuredKey.problem);
  if (privateKey && !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(privateKey)) {
    problems.push(
      `${configuredKey.from === "PRIVATE_KEY" ? "PRIVATE_KEY" : `PRIVATE_KEY_PATH: "${e.PRIVATE_KEY_PATH}"`}: is not a PEM private key (it should start with -----BEGIN RSA PRIVATE KEY-----)`,
    );
  }
  let app: EnvConfig["app"];
  if (e.APP_ID || invalid.has("APP_ID")) {
    if (!privateKey && !problems.some((p) => p.startsWith("PRIVATE_KEY")))
      problems.push("PRIVATE_KEY or PRIVATE_KEY_PATH: required when APP_ID is set (the .pem file GitHub gave you)");
    if (!e.WEBHOOK_SECRET)
      problems.push(
        "WEBHOOK_SECRET: required when APP_ID is set (the secret you entered in the App's webhook settings)",
      );
    if (e.APP_ID && privateKey && e.WEBHOOK_SECRET)
      app = { appId: Number(e.APP_ID), privateKey, webhookSecret: e.WEBHOOK_SECRET };
  } else if (e.ROLE === "worker") {
    // Without APP_ID a process runs the setup flow; a worker's is nobody's to open.
    problems.push(
      "APP_ID: required with ROLE=worker (register the App through the setup flow of a web process, which saves it to ENV_FILE, then start the workers)",
    );
  }
  return { app, privateKey };
}

/** Where GitHub's webhooks arrive and the app listens. */
function readServer(e: ParsedEnv): Pick<EnvConfig, "webhookPath" | "webhookProxyUrl" | "publicUrl" | "port" | "host"> {
  return {
    webhookPath: e.WEBHOOK_PATH,
    webhookProxyUrl: e.WEBHOOK_PROXY_URL,
    publicUrl: e.PUBLIC_URL,
    port: e.PORT,
    host: e.HOST,
  };
}

/** The database and what the app keeps on disk. */
function readStorage(
  e: ParsedEnv,
): Pick<EnvConfig, "databaseUrl" | "dataDir" | "embeddedBuffersMb" | "workspaceMaxBytes"> {
  return {
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    embeddedBuffersMb: e.EMBEDDED_DB_BUFFERS_MB,
    workspaceMaxBytes: e.WORKSPACE_MAX_MB * 1024 * 1024,
  };
}

/** Which agents run the roles' turns, and what one turn may use. */
function readAgent(e: ParsedEnv, roles: AgentRoles): EnvConfig["agent"] {
  return {
    name: e.AGENT,
    verifier: roles.verifier.name,
    roles,
    fromRepo: e.AGENTS_FROM_REPO,
    timeoutMs: e.AGENT_TIMEOUT,
    model: e.AGENT_MODEL,
    extraArgs: e.AGENT_ARGS,
    maxOutputTokens: e.AGENT_MAX_OUTPUT_TOKENS,
    sessionMaxTokens: e.AGENT_SESSION_MAX_TOKENS,
    cacheTtlMs: e.AGENT_CACHE_TTL,
    serverTools: e.AGENT_SERVER_TOOLS,
    fake: { scenario: e.FAKE_AGENT_SCENARIO, home: e.FAKE_AGENT_HOME, log: e.FAKE_AGENT_LOG },
    cli: e.AGENT_CLI,
    sandbox: e.AGENT_SANDBOX,
    limits: {
      maxProcesses: e.AGENT_MAX_PROCESSES,
      maxMemoryMb: e.AGENT_MAX_MEMORY_MB,
      maxFileMb: e.AGENT_MAX_FILE_MB,
      maxWorkspaceMb: e.AGENT_MAX_WORKSPACE_MB,
    },
    homeDir: `${e.DATA_DIR.replace(/\/$/, "")}/agents`,
    stateMaxBytes:
      e.AGENT_STATE_MAX_BYTES && /^\d+$/.test(e.AGENT_STATE_MAX_BYTES)
        ? Number(e.AGENT_STATE_MAX_BYTES)
        : 8 * 1024 * 1024,
    anthropic: { apiKey: e.ANTHROPIC_API_KEY, baseUrl: e.ANTHROPIC_BASE_URL },
    openai: { apiKey: e.OPENAI_API_KEY, baseUrl: e.OPENAI_BASE_URL },
    gemini: { apiKey: e.GEMINI_API_KEY, baseUrl: e.GOOGLE_GEMINI_BASE_URL },
    opencode: { provider: e.OPENCODE_PROVIDER, apiKey: e.OPENCODE_API_KEY, baseUrl: e.OPENCODE_BASE_URL },
  };
}

/** Running the repositories' own commands in the sandbox. */
function readChecks(e: ParsedEnv): EnvConfig["checks"] {
  return {
    enabled: e.CHECKS,
    registries: e.CHECKS_REGISTRIES,
    concurrency: e.CHECKS_CONCURRENCY,
    cacheBytes: e.CHECKS_CACHE_MB * 1024 * 1024,
  };
}

/** Which processes do what, and how they stop. */
function readWorkers(e: ParsedEnv): Pick<EnvConfig, "role" | "workers" | "workerIdleExitMs" | "stopGraceMs"> {
  return {
    role: e.ROLE,
    workers: e.WORKERS,
    workerIdleExitMs: e.WORKER_IDLE_EXIT,
    stopGraceMs: e.STOP_GRACE,
  };
}

/** github.com, or the GitHub Enterprise Server GHE_HOST names. */
function readGitHub(e: ParsedEnv): EnvConfig["github"] {
  return e.GHE_HOST
    ? {
        baseUrl: `${e.GHE_PROTOCOL}://${e.GHE_HOST}/api/v3`,
        webOrigin: `${e.GHE_PROTOCOL}://${e.GHE_HOST}`,
        host: e.GHE_HOST,
        protocol: e.GHE_PROTOCOL,
        gitHosts: [e.GHE_HOST, ...e.GIT_TRUSTED_HOSTS],
      }
    : {
        webOrigin: "https://github.com",
        host: "github.com",
        protocol: "https" as const,
        gitHosts: ["github.com", ...e.GIT_TRUSTED_HOSTS],
      };
}

/** The run view's sign-in and its operators. */
function readWeb(e: ParsedEnv): EnvConfig["web"] {
  return {
    oauth:
      e.GITHUB_CLIENT_ID && e.GITHUB_CLIENT_SECRET
        ? { clientId: e.GITHUB_CLIENT_ID, clientSecret: e.GITHUB_CLIENT_SECRET }
        : undefined,
    admins: e.WEB_ADMINS,
  };
}

/** Every secret value set (8 characters or more), for log and output redaction. */
function readSecrets(e: ParsedEnv, env: NodeJS.ProcessEnv, privateKey?: string, metricsToken?: string): string[] {
  return [
    privateKey,
    e.WEBHOOK_SECRET,
    env.ANTHROPIC_API_KEY,
    env.OPENAI_API_KEY,
    env.CODEX_API_KEY,
    env.GEMINI_API_KEY,
    env.OPENCODE_API_KEY,
    e.DATABASE_URL,
    e.GITHUB_CLIENT_SECRET,
    metricsToken,
  ].filter((s): s is string => typeof s === "string" && s.length >= 8);
}

/** A sub-reader's result, its problems added to the others (reported in the same throw). */
function collect<T>(read: () => T, problems: string[]): T | undefined {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems);
    return undefined;
  }
}
