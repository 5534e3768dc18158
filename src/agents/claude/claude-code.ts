/*
 * The claude room: the Claude Code adapter. This file runs `claude -p` in the sandbox and reads its result
 * object; claude-sessions.ts exports a session's transcript after a turn and writes it back before a resume.
 */
import { mkdir, realpath, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { AgentError, type AgentErrorKind } from "../agent-error.js";
import type { AgentModel } from "../agent-model.js";
import { exportClaudeSession, importClaudeSession } from "./claude-sessions.js";
import { extractJson } from "../extract-json.js";
import { probeSentModel } from "../probe-sent-model.js";
import { placeAppFiles, type AppFile } from "../sandbox/agent-home-files.js";
import type { SandboxedResult } from "../sandbox/agent-sandbox.js";
import type { ModelEndpoint } from "../sandbox/model-route.js";
import { SandboxedCli, type SandboxedCliOptions } from "../sandbox/sandboxed-cli.js";
import type { Agent, AgentResult, AgentRunOptions, AgentUsage, PortableSessions, Role } from "../types.js";

/** The pinned CLI of this package (node_modules/.bin/claude, relative to the project root). */
export const DEFAULT_CLAUDE_CLI = fileURLToPath(new URL("../../../node_modules/.bin/claude", import.meta.url));
const DEFAULT_ANTHROPIC_BASE_URL = "https://api.anthropic.com";
/** The model when AGENT_MODEL names none. */
export const DEFAULT_CLAUDE_MODEL = "claude-sonnet-4-5";

/**
 * The user settings every call loads (`--setting-sources user`): the app's, read-only inside the
 * sandbox. No hooks, and hooks switched off, whatever else the agent manages to add.
 */
export const CLAUDE_APP_SETTINGS = { disableAllHooks: true, includeGitInstructions: false } as const;
const SETTINGS_FILES = ["settings.json", "settings.local.json"];

export interface ClaudeCodeAgentOptions extends SandboxedCliOptions {
  /** Path of the `claude` binary; default DEFAULT_CLAUDE_CLI. */
  cli?: string;
  /** CLAUDE_CONFIG_DIR of a call is `<homeDir>/claude/<scope ?? "default">` (one per run and role). */
  homeDir: string;
  /** The one model the CLI runs (`--model`); the proxy lets it through, and the id the CLI sends for it. Default DEFAULT_CLAUDE_MODEL. */
  model?: string;
}

/** Tools per role. The reviewer only reads; the fixer also edits files (never runs commands). */
const READ_ONLY = {
  tools: ["Read", "Glob", "Grep"],
  disallowed: ["Edit", "Write", "NotebookEdit", "Bash", "WebFetch", "WebSearch"],
};
const TOOLS: Record<Role, { tools: string[]; disallowed: string[]; permissionMode?: string }> = {
  reviewer: READ_ONLY,
  verifier: READ_ONLY,
  fixer: {
    tools: ["Read", "Edit", "Write", "NotebookEdit", "Glob", "Grep"],
    disallowed: ["Bash", "WebFetch", "WebSearch"],
    permissionMode: "acceptEdits",
  },
};

/**
 * The id the CLI sends for each configured name, per CLI binary (and the extra args it runs with): one
 * probe per process each. Claude Code 2.1.197 sends claude-opus-4-8 for claude-opus-4-1, `opus` and
 * `default`, claude-sonnet-5 for `sonnet`: only the CLI knows, so the CLI is asked.
 */
const SENT_MODELS = new Map<string, Promise<string>>();

const RESUME_FAILED = /No conversation found with session ID|--resume requires a valid session ID/i;
const TRANSIENT =
  /\b(429|529|5\d\d)\b|overloaded|rate.?limit|too many requests|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|socket hang up|Unable to connect|FailedToOpenSocket|network error|connection error|server-side issue/i;

/** The result object `claude -p --output-format json` prints. */
interface ClaudeResultObject {
  type?: string;
  subtype?: string;
  is_error?: boolean;
  api_error_status?: number | null;
  result?: string;
  session_id?: string;
  total_cost_usd?: number;
  num_turns?: number;
  usage?: {
    input_tokens?: number;
    output_tokens?: number;
    cache_creation_input_tokens?: number;
    cache_read_input_tokens?: number;
  };
  permission_denials?: unknown[];
}

/**
 * Claude Code, headless: `claude -p --output-format json` with the prompt on stdin, one CLI config
 * dir per scope, tools restricted per role on every call (resumes included: the CLI does not
 * remember permissions), project settings and MCP servers of the workspace ignored (a PR could
 * otherwise add hooks that run commands). Sessions are portable: the transcript is exported after a
 * turn and written back before a resume when missing.
 */
export class ClaudeCodeAgent implements Agent {
  readonly name = "claude";
  readonly supportsResume = true;
  readonly portable: PortableSessions;
  readonly #options: ClaudeCodeAgentOptions;
  readonly #cli: SandboxedCli;

  constructor(options: ClaudeCodeAgentOptions) {
    this.#options = options;
    this.#cli = new SandboxedCli(options, DEFAULT_CLAUDE_CLI);
    this.portable = {
      exportSession: async (sessionId, cwd, scope) => exportClaudeSession(this.configDir(scope), sessionId, cwd),
      importSession: async (sessionId, cwd, state, scope) => {
        const dir = this.configDir(scope);
        await mkdir(dir, { recursive: true, mode: 0o700 });
        await importClaudeSession(dir, sessionId, cwd, state);
      },
    };
  }

  get #model(): string {
    return this.#options.model ?? DEFAULT_CLAUDE_MODEL;
  }

  /** The model of every turn: as configured, and the id the CLI sends for it (learnt once, from the CLI). */
  async resolveModel(): Promise<AgentModel> {
    const configured = this.#model;
    const cli = this.#cli.path;
    const key = [await binaryIdentity(cli), configured, ...(this.#options.extraArgs ?? [])].join("\0");
    let sent = SENT_MODELS.get(key);
    if (!sent) {
      sent = this.#probeSentModel(cli);
      SENT_MODELS.set(key, sent);
      sent.catch(() => SENT_MODELS.delete(key));
    }
    try {
      return { configured, isDefault: this.#options.model === undefined, sent: await sent };
    } catch (error) {
      const failure = error instanceof AgentError ? error : undefined;
      throw new AgentError(
        failure?.kind ?? "spawn",
        this.#redact(
          `claude could not be asked which model id it sends for "${configured}": ${(error as Error).message}`,
        ),
        { cause: error },
      );
    }
  }

  /** A turn's launch (a reviewer's, fresh) in a scratch directory, against the probe's server. */
  #probeSentModel(cli: string): Promise<string> {
    return probeSentModel(
      async (baseUrl, scratch) => {
        const configDir = join(scratch, "config");
        const home = join(configDir, "home");
        await mkdir(home, { recursive: true });
        const settings = `${JSON.stringify(CLAUDE_APP_SETTINGS)}\n`;
        await Promise.all(SETTINGS_FILES.map((name) => writeFile(join(configDir, name), settings)));
        await mkdir(join(scratch, "workspace"));
        const env = this.#env({ baseUrl, apiKey: "no-mistakes-model-probe" }, configDir, home, undefined);
        return {
          command: cli,
          args: this.args({ role: "reviewer" }),
          // The probe's server is on loopback, like the bridge inside the sandbox: no proxy in between.
          env: Object.fromEntries(Object.entries(env).filter(([name]) => !/^(https?|all|no)_proxy$/i.test(name))),
          cwd: join(scratch, "workspace"),
          stdin: "Reply OK.",
        };
      },
      { killGraceMs: this.#options.killGraceMs },
    );
  }

  /**
   * The CLI's environment. `sent`, the id the CLI sends for the configured model, is also what its
   * background calls (titles, summaries) use, so the proxy forwards them too; the probe leaves it out,
   * or a configured alias such as `haiku` would name itself.
   */
  #env(endpoint: ModelEndpoint, configDir: string, home: string, sent: string | undefined): Record<string, string> {
    return this.#cli.env({
      ANTHROPIC_API_KEY: endpoint.apiKey,
      ANTHROPIC_BASE_URL: endpoint.baseUrl,
      CLAUDE_CONFIG_DIR: configDir,
      HOME: home,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      ANTHROPIC_SMALL_FAST_MODEL: sent,
      ANTHROPIC_DEFAULT_HAIKU_MODEL: sent,
      CLAUDE_CODE_MAX_RETRIES: "0",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
      // No memory files: the maintainers' guidelines come from the base commit, in the prompt. Project
      // memory (CLAUDE.md, CLAUDE.local.md, .claude/, nested ones) is the PR head's, kept out already by
      // `--setting-sources user`; user memory and auto memory live in the config dir, writable during a
      // turn. With these nothing of either is read, whatever AGENT_ARGS says about setting sources.
      CLAUDE_CODE_DISABLE_CLAUDE_MDS: "1",
      CLAUDE_CODE_DISABLE_AUTO_MEMORY: "1",
    });
  }

  /** CLAUDE_CONFIG_DIR for a scope. */
  configDir(scope?: string): string {
    return join(this.#options.homeDir, "claude", safeScope(scope));
  }

  /** The CLI arguments of a call (the prompt goes on stdin). */
  args(options: Pick<AgentRunOptions, "role" | "sessionId">): string[] {
    const policy = TOOLS[options.role];
    const args = ["-p", "--output-format", "json", "--setting-sources", "user", "--strict-mcp-config"];
    args.push("--tools", policy.tools.join(","));
    args.push("--allowedTools", policy.tools.join(","));
    args.push("--disallowedTools", policy.disallowed.join(","));
    if (policy.permissionMode) args.push("--permission-mode", policy.permissionMode);
    if (options.sessionId !== undefined) args.push("--resume", options.sessionId);
    args.push("--model", this.#model);
    args.push(...(this.#options.extraArgs ?? []));
    return args;
  }

  async run(options: AgentRunOptions): Promise<AgentResult> {
    const model = await this.resolveModel();
    const configDir = this.configDir(options.scope);
    const home = join(configDir, "home");
    let appFiles: AppFile[];
    try {
      await mkdir(home, { recursive: true, mode: 0o700 });
      // The config dir is writable inside the sandbox: settings (hooks, permissions) a previous turn wrote
      // there would be loaded by this one (`--setting-sources user`). The app's replace them before every
      // turn and are bound read-only inside, so a write during the turn fails too.
      const settings = `${JSON.stringify(CLAUDE_APP_SETTINGS)}\n`;
      appFiles = await placeAppFiles(
        configDir,
        join(this.#options.homeDir, "app", "claude", safeScope(options.scope)),
        Object.fromEntries(SETTINGS_FILES.map((name) => [name, settings])),
      );
    } catch (error) {
      throw new AgentError(
        "spawn",
        `claude config dir ${configDir} could not be created: ${(error as Error).message}`,
        { cause: error },
      );
    }
    const { upstream, endpoint } = this.#cli.endpoint(DEFAULT_ANTHROPIC_BASE_URL);
    return this.#cli.run(options, {
      agent: "claude",
      args: this.args(options),
      home: configDir,
      appFiles,
      env: this.#env(endpoint, configDir, home, model.sent),
      upstream,
      api: "anthropic",
      authHeader: "x-api-key",
      model,
      interpret: (outcome) => this.#interpret(outcome, options),
    });
  }

  #interpret(outcome: SandboxedResult, options: AgentRunOptions): AgentResult {
    const fail = (kind: AgentErrorKind, message: string): AgentError => new AgentError(kind, this.#redact(message));
    if (outcome.cancelled) throw fail("cancelled", `claude was cancelled after ${outcome.durationMs} ms`);
    if (outcome.timedOut)
      throw fail("timeout", `claude ran past its time limit (${options.timeoutMs} ms) and was killed`);

    const parsed = parseResult(outcome.stdout);
    const detail = [parsed?.result, outcome.stderr.trim()].filter(Boolean).join(" | ");
    const exit = outcome.exitCode === null ? `signal ${outcome.signal ?? "?"}` : `exit ${outcome.exitCode}`;

    if (options.sessionId !== undefined && RESUME_FAILED.test(`${outcome.stderr}\n${parsed?.result ?? ""}`)) {
      throw fail("resume-failed", `claude could not resume session ${options.sessionId}: ${tail(detail)}`);
    }
    if (!parsed) {
      if (outcome.exitCode === 0)
        throw fail("parse", `claude printed no result object (${exit}): ${tail(outcome.stdout || outcome.stderr)}`);
      throw fail(
        TRANSIENT.test(outcome.stderr) ? "transient" : "other",
        `claude failed (${exit}): ${tail(outcome.stderr || outcome.stdout)}`,
      );
    }
    if (parsed.is_error || outcome.exitCode !== 0 || (parsed.subtype && parsed.subtype !== "success")) {
      const status = parsed.api_error_status ?? undefined;
      const transient =
        status === 429 ||
        status === 408 ||
        (status !== undefined && status >= 500) ||
        (status === undefined && TRANSIENT.test(detail));
      throw fail(
        transient ? "transient" : "other",
        `claude failed (${exit}${status ? `, API status ${status}` : ""}${parsed.subtype && parsed.subtype !== "success" ? `, ${parsed.subtype}` : ""}): ${tail(detail)}`,
      );
    }

    const text = parsed.result ?? "";
    const sessionId = parsed.session_id;
    return {
      text,
      json: extractJson(text),
      sessionId,
      resumed: options.sessionId !== undefined && sessionId === options.sessionId,
      usage: usageOf(parsed),
    };
  }

  #redact(message: string): string {
    const key = this.#options.apiKey;
    return key && key.length >= 4 ? message.split(key).join("[redacted]") : message;
  }
}

/** A CLI binary as the probe cache knows it: its real path and when it last changed (an upgrade in place). */
async function binaryIdentity(cli: string): Promise<string> {
  try {
    const real = await realpath(cli);
    const { mtimeMs, size } = await stat(real);
    return `${real}\0${mtimeMs}\0${size}`;
  } catch {
    return cli; // missing: the probe says so
  }
}

function safeScope(scope: string | undefined): string {
  const cleaned = (scope ?? "default").replace(/[^A-Za-z0-9._-]/g, "_");
  return cleaned === "" || cleaned === "." || cleaned === ".." ? "default" : cleaned;
}

/** The result object: the whole stdout, else its last line that is one (stream-json, stray output). */
function parseResult(stdout: string): ClaudeResultObject | undefined {
  const candidates = [stdout.trim(), ...stdout.trim().split("\n").reverse()];
  for (const candidate of candidates) {
    if (!candidate.startsWith("{")) continue;
    try {
      const value = JSON.parse(candidate) as unknown;
      if (
        value &&
        typeof value === "object" &&
        !Array.isArray(value) &&
        ((value as ClaudeResultObject).type === "result" || "session_id" in value)
      ) {
        return value as ClaudeResultObject;
      }
    } catch {
      // not this line
    }
  }
  return undefined;
}

function usageOf(result: ClaudeResultObject): AgentUsage {
  const u = result.usage ?? {};
  const usage: AgentUsage = {
    tokensIn: (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0),
    tokensOut: u.output_tokens ?? 0,
    cacheReadTokens: u.cache_read_input_tokens ?? 0,
    cacheWriteTokens: u.cache_creation_input_tokens ?? 0,
  };
  if (typeof result.total_cost_usd === "number") usage.costUsd = result.total_cost_usd;
  return usage;
}

function tail(text: string, max = 600): string {
  const trimmed = text.trim();
  return trimmed.length > max ? `…${trimmed.slice(-max)}` : trimmed;
}
