import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { AgentError } from "../agent-error.js";
import type { AgentModel } from "../agent-model.js";
import { extractJson } from "../extract-json.js";
import { runAgentProcess } from "../process/run-agent-process.js";
import type { SandboxedResult } from "../sandbox/agent-sandbox.js";
import { DEFAULT_MAX_OUTPUT_TOKENS } from "../sandbox/model-policy.js";
import { SandboxedCli, stoppedTurnError, type SandboxedCliOptions } from "../sandbox/sandboxed-cli.js";
import type { Agent, AgentResult, AgentRunOptions, PortableSessions } from "../types.js";
import { API_KEY_ENV, openCodeConfig, type OpenCodeProvider } from "./opencode-config.js";
import { classifyOpenCodeFailure, openCodeError, parseOpenCodeEvents, stderrTail } from "./opencode-events.js";
import { openCodeHomeFor, placeOpenCodeConfig, resetOpenCodeHome, type OpenCodeHome } from "./opencode-home.js";
import {
  hasOpenCodeSession,
  OPENCODE_SESSION_ID,
  packOpenCodeDb,
  removeOpenCodeDb,
  restoreOpenCodeDb,
  unpackOpenCodeDb,
} from "./opencode-state.js";

/** The pinned CLI: the Linux x64 binary package of opencode-ai. */
export const DEFAULT_OPENCODE_CLI = fileURLToPath(
  new URL("../../../node_modules/opencode-linux-x64/bin/opencode", import.meta.url),
);
export const DEFAULT_OPENCODE_MODEL = "claude-sonnet-4-5";
const DEFAULT_BASE_URLS: Record<OpenCodeProvider, string> = {
  anthropic: "https://api.anthropic.com",
  openai: "https://api.openai.com/v1",
};

/**
 * What OpenCode reads of a workspace by itself whatever its settings say: instruction files, its project
 * config, and `.opencode/` (whose plugin/*.js it imports and runs even under OPENCODE_PURE). The sandbox
 * shows them to it empty: the PR head's copies never reach the CLI.
 */
const WORKSPACE_HIDDEN = [
  "AGENTS.md",
  "CLAUDE.md",
  "CONTEXT.md",
  "opencode.json",
  "opencode.jsonc",
  ".opencode",
  ".claude",
  ".agents",
];

export interface OpenCodeAgentOptions extends SandboxedCliOptions {
  /** Per-(run, role) homes live in `<homeDir>/opencode/<scope ?? "default">`. */
  homeDir: string;
  /** Path of the opencode binary; default DEFAULT_OPENCODE_CLI. */
  cli?: string;
  /** The API of the provider the app configures (OPENCODE_PROVIDER); default anthropic. */
  provider?: OpenCodeProvider;
  /** The one model OpenCode runs and the proxy lets through; default DEFAULT_OPENCODE_MODEL. */
  model?: string;
  /** Upstream base (OPENCODE_BASE_URL): like ANTHROPIC_BASE_URL (no /v1) or OPENAI_BASE_URL (ending in /v1). */
  baseUrl?: string;
  /** Appended to every `opencode run` call. */
  extraArgs?: string[];
}

/**
 * OpenCode (`opencode run --format json`), headless, against the one provider the app configures (an
 * Anthropic or an OpenAI-compatible API, through the model proxy). The prompt goes on stdin. Each (run,
 * role) has its own HOME and XDG dirs; the config folder is the app's (read-only inside the sandbox) and
 * everything the CLI would load from the home or the workspace by itself is removed or hidden. Sessions
 * (`ses_…`) resume with `-s <id> --dir <cwd>`; the SQLite database holding them is the exported state.
 */
export class OpenCodeAgent implements Agent {
  readonly name = "opencode";
  readonly supportsResume = true;
  readonly portable: PortableSessions;
  readonly #options: OpenCodeAgentOptions;
  readonly #cli: SandboxedCli;

  constructor(options: OpenCodeAgentOptions) {
    this.#options = options;
    this.#cli = new SandboxedCli(options, DEFAULT_OPENCODE_CLI);
    this.portable = {
      exportSession: async (sessionId, _cwd, scope) => {
        const h = this.#home(scope);
        return packOpenCodeDb(h.home, h.data, sessionId);
      },
      importSession: async (sessionId, _cwd, state, scope) => {
        const h = this.#home(scope);
        if (await hasOpenCodeSession(h.home, h.data, sessionId)) return; // the local copy is there
        const parts = unpackOpenCodeDb(state, sessionId);
        if (parts) await restoreOpenCodeDb(h.home, h.data, parts); // else: the resume fails, RunSessions falls back
      },
    };
  }

  get #provider(): OpenCodeProvider {
    return this.#options.provider ?? "anthropic";
  }

  /** OpenCode sends the model id of its config as it is. */
  resolveModel(): Promise<AgentModel> {
    const configured = this.#options.model ?? DEFAULT_OPENCODE_MODEL;
    return Promise.resolve({ configured, isDefault: this.#options.model === undefined, sent: configured });
  }

  /** The CLI's version (`opencode --version`), run outside any workspace; throws when it does not start. */
  async version(): Promise<string> {
    const cli = this.#cli.path;
    const h = this.#home("doctor");
    await resetOpenCodeHome(h);
    const result = await runAgentProcess({
      command: cli,
      args: ["--version"],
      cwd: h.home,
      env: this.#env(h, undefined),
      stdin: "",
      timeoutMs: 30_000,
    });
    const version = result.stdout.trim();
    if (result.exitCode !== 0 || !/^\d+\.\d+/.test(version))
      throw new AgentError(
        "spawn",
        `${cli} --version: ${stderrTail(result.stderr, 300) || `exit ${result.exitCode ?? result.signal}`}`,
      );
    return version;
  }

  #home(scope: string | undefined): OpenCodeHome {
    return openCodeHomeFor(this.#options.homeDir, scope);
  }

  async run(options: AgentRunOptions): Promise<AgentResult> {
    if (options.signal?.aborted) throw new AgentError("cancelled", "opencode: cancelled before it started");
    const asked = options.sessionId;
    if (asked !== undefined && !OPENCODE_SESSION_ID.test(asked))
      throw new AgentError("resume-failed", `opencode: ${JSON.stringify(asked)} is not a session id`);
    const h = this.#home(options.scope);
    await resetOpenCodeHome(h);
    // A fresh session starts a fresh database: an unreadable one (an earlier turn's, a bad import) never
    // stops it, and the exported state holds only the current session.
    if (asked === undefined) await removeOpenCodeDb(h.home, h.data);

    const { upstream, endpoint } = this.#cli.endpoint(DEFAULT_BASE_URLS[this.#provider]);
    const model = await this.resolveModel();
    const appFiles = await placeOpenCodeConfig(h, join(this.#options.homeDir, "app", "opencode", basename(h.home)), {
      "opencode.json": openCodeConfig({
        provider: this.#provider,
        baseUrl: endpoint.baseUrl,
        model: model.sent,
        withKey: endpoint.apiKey !== undefined,
        maxOutputTokens: this.#options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
        mayEdit: options.role === "fixer",
      }),
      ".gitignore": "*\n",
      // the global instructions file: empty, so nothing reaches the model as instructions from here
      "AGENTS.md": "",
    });
    const args = ["run", "--format", "json", "--title", `no-mistakes ${options.role}`];
    if (asked !== undefined) args.push("-s", asked, "--dir", options.cwd);
    args.push(...(this.#options.extraArgs ?? []));
    const anthropic = this.#provider === "anthropic";
    return this.#cli.run(options, {
      agent: "opencode",
      args,
      home: h.home,
      appFiles,
      hidden: WORKSPACE_HIDDEN.map((name) => join(options.cwd, name)),
      env: this.#env(h, endpoint.apiKey),
      upstream,
      api: anthropic ? "anthropic" : "openai-chat",
      authHeader: anthropic ? "x-api-key" : "authorization",
      model,
      interpret: (result) => this.#interpret(result, options),
    });
  }

  /** Offline and confined: nothing fetched, updated, shared or installed; no project config or skills. */
  #env(h: OpenCodeHome, apiKey: string | undefined): Record<string, string> {
    return this.#cli.env({
      HOME: h.home,
      XDG_CONFIG_HOME: h.config,
      XDG_DATA_HOME: h.data,
      XDG_STATE_HOME: h.state,
      XDG_CACHE_HOME: h.cache,
      [API_KEY_ENV]: apiKey,
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_SHARE: "1",
      OPENCODE_DISABLE_FFF: "1",
      OPENCODE_DISABLE_PROJECT_CONFIG: "1",
      OPENCODE_DISABLE_CLAUDE_CODE: "1",
      OPENCODE_DISABLE_EXTERNAL_SKILLS: "1",
      OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
      OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
      OPENCODE_EXPERIMENTAL_DISABLE_FILEWATCHER: "1",
      NO_COLOR: "1",
    });
  }

  #interpret(result: SandboxedResult, options: AgentRunOptions): AgentResult {
    const asked = options.sessionId;
    const secrets = [this.#options.apiKey];
    const stopped = stoppedTurnError("opencode", result, options);
    if (stopped) throw stopped;

    const events = parseOpenCodeEvents(result.stdout);
    const failure =
      events.errors.at(-1) ??
      (result.exitCode !== 0
        ? stderrTail(result.stderr) || `exit code ${result.exitCode ?? result.signal}`
        : undefined);
    if (failure !== undefined) {
      const kind = classifyOpenCodeFailure(failure, asked !== undefined && events.steps === 0);
      throw openCodeError(kind, `opencode exited with ${result.exitCode ?? result.signal}: ${failure}`, secrets);
    }
    if (!events.sessionId || events.steps === 0) {
      const what = !events.sessionId ? "no session id" : "no step_finish event";
      throw openCodeError(
        "parse",
        `opencode: unreadable output (${what}; ${events.events} events, ${events.unreadableLines} other lines${result.truncated ? ", truncated" : ""}): ${stderrTail(result.stderr, 500)}`,
        secrets,
      );
    }
    const t = events.tokens;
    const text = events.finalText ?? "";
    return {
      text,
      json: extractJson(text),
      sessionId: events.sessionId,
      resumed: asked !== undefined && events.sessionId === asked,
      usage: {
        tokensIn: t.input + t.cacheRead + t.cacheWrite,
        tokensOut: t.output,
        cacheReadTokens: t.cacheRead,
        cacheWriteTokens: t.cacheWrite,
        ...(t.largestInput > 0 ? { contextTokens: t.largestInput } : {}),
      },
    };
  }
}
