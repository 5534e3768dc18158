/*
 * The codex room: the OpenAI Codex CLI adapter. This file runs `codex exec --json` in the sandbox; the
 * events it prints are read by codex-events.ts, its threads' rollout files exported and restored by
 * codex-rollout.ts, and what an earlier turn left in its home reset by codex-home-entries.ts.
 */
import { mkdir, readdir } from "node:fs/promises";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { AgentError } from "../agent-error.js";
import type { AgentModel } from "../agent-model.js";
import {
  classifyCodexFailure,
  codexError,
  parseCodexEvents,
  stderrTail,
  type CodexTokenTotals,
} from "./codex-events.js";
import {
  findRollout,
  isDirectory,
  packRollout,
  readRolloutTotals,
  restoreRollout,
  THREAD_ID,
  unpackRollout,
  type PackedRollout,
} from "./codex-rollout.js";
import { resetCodexHomeEntries } from "./codex-home-entries.js";
import { extractJson } from "../extract-json.js";
import { placeAppFiles, type AppFile } from "../sandbox/agent-home-files.js";
import type { SandboxedResult } from "../sandbox/agent-sandbox.js";
import { SandboxedCli, stoppedTurnError, type SandboxedCliOptions } from "../sandbox/sandboxed-cli.js";
import type { Agent, AgentResult, AgentRunOptions, PortableSessions } from "../types.js";

/** The pinned CLI of this package. */
export const DEFAULT_CODEX_CLI = fileURLToPath(new URL("../../../node_modules/.bin/codex", import.meta.url));
/** A model codex 0.171 knows (`codex debug models`); an unknown slug still runs, with generic defaults. */
export const DEFAULT_CODEX_MODEL = "gpt-5.5";
const DEFAULT_BASE_URL = "https://api.openai.com/v1";
/** The variable codex reads the API key from (`env_key` of our provider). */
const API_KEY_ENV = "OPENAI_API_KEY";
const PROVIDER_ID = "no_mistakes";

export interface CodexAgentOptions extends SandboxedCliOptions {
  /** Per-installation CODEX_HOMEs live in `<homeDir>/codex/<scope ?? "default">`. */
  homeDir: string;
  /** The one model codex runs and the proxy lets through (codex sends it as it is); default DEFAULT_CODEX_MODEL. */
  model?: string;
  /** OpenAI-compatible Responses API base, ending in /v1. Default https://api.openai.com/v1. */
  baseUrl?: string;
  /** Appended to every `codex exec` call, before the prompt marker. */
  extraArgs?: string[];
  /** The CLI's own retries of a failed model request / dropped stream; default 1 each (RunSessions retries transients too). */
  requestMaxRetries?: number;
  streamMaxRetries?: number;
}

/** The CODEX_HOME of a scope (one per run and role), under the agents' home dir. */
export function codexHomeFor(homeDir: string, scope?: string): string {
  const name = scope === undefined || scope === "" ? "default" : scope;
  if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new AgentError("other", `codex: invalid scope ${JSON.stringify(name)}`);
  return join(homeDir, "codex", name);
}

/** Where the app keeps the config.toml of a scope: outside its CODEX_HOME, bound read-only over it in the sandbox. */
export function codexAppDirFor(homeDir: string, scope?: string): string {
  return join(homeDir, "app", "codex", basename(codexHomeFor(homeDir, scope)));
}

/**
 * OpenAI Codex CLI (`codex exec --json`), headless. Reviewer turns run in the read-only sandbox,
 * fixer turns in workspace-write (passed on every call: a resume does not inherit it). The prompt
 * goes on stdin (`-`), never on argv. Sessions are codex threads, resumed with
 * `codex exec resume <thread_id>`; their rollout files are exported/imported for portability.
 */
export class CodexAgent implements Agent {
  readonly name = "codex";
  readonly supportsResume = true;
  readonly portable: PortableSessions;
  readonly #options: CodexAgentOptions;
  readonly #cli: SandboxedCli;
  /** Where each thread this process ran lives (its CODEX_HOME), for export. */
  readonly #homes = new Map<string, string>();
  /** Imported rollouts waiting for the run that resumes them (its scope decides the CODEX_HOME). */
  readonly #pending = new Map<string, PackedRollout>();
  /** Token totals of a thread after its last turn here (a fallback when the rollout has none). */
  readonly #totals = new Map<string, CodexTokenTotals>();

  constructor(options: CodexAgentOptions) {
    this.#options = options;
    this.#cli = new SandboxedCli(options, DEFAULT_CODEX_CLI);
    this.portable = {
      exportSession: (sessionId, _cwd, scope) => this.#export(sessionId, scope),
      importSession: async (sessionId, _cwd, state, scope) => {
        const packed = unpackRollout(state, sessionId);
        if (!packed) return; // not ours, or unsafe: the resume fails and RunSessions falls back
        if (scope !== undefined) {
          await restoreRollout(codexHomeFor(this.#options.homeDir, scope), packed);
          return;
        }
        // Without a scope the CODEX_HOME is only known at run time: the run that resumes it writes it.
        if (this.#pending.size > 256) this.#pending.clear();
        this.#pending.set(sessionId, packed);
      },
    };
  }

  /**
   * The model of every turn. `codex exec` 0.171 sends the configured slug as it is — unknown ones, and
   * ones its model catalogue names an upgrade for, included (test/agents/sent-model.test.ts holds it to
   * that) — and the proxy answers its model list with an empty one, so nothing rewrites it.
   */
  resolveModel(): Promise<AgentModel> {
    const configured = this.#options.model ?? DEFAULT_CODEX_MODEL;
    return Promise.resolve({ configured, isDefault: this.#options.model === undefined, sent: configured });
  }

  async run(options: AgentRunOptions): Promise<AgentResult> {
    if (options.signal?.aborted) throw new AgentError("cancelled", "codex: cancelled before it started");
    const home = codexHomeFor(this.#options.homeDir, options.scope);
    await mkdir(home, { recursive: true });
    await resetCodexHomeEntries(home);

    const asked = options.sessionId;
    const baseline = asked === undefined ? { input: 0, output: 0 } : await this.#resumedTotals(home, asked);

    // Inside our sandbox, codex's own is off: ours already gives the reviewer a read-only tree, the fixer
    // a writable one, no network and no key, and codex's bubblewrap cannot nest in it (its helper,
    // codex-linux-sandbox, is not on the sandbox's PATH). Unconfined (AGENT_SANDBOX=off), codex's own
    // read-only / workspace-write sandbox is all there is.
    const confined = this.#cli.sandbox.kind !== "off";
    const mode = confined ? "danger-full-access" : options.role === "fixer" ? "workspace-write" : "read-only";
    const args = this.#args(mode, asked);

    // Unconfined, codex runs each tool through its sandbox helper, an alias of its binary it puts in
    // CODEX_HOME/tmp — but refuses to when CODEX_HOME is under its temp dir ($TMPDIR, else /tmp), and
    // every tool call then fails ("bwrap: execvp codex-linux-sandbox"). So it gets a temp dir of its own
    // inside the home (not an ancestor of it), and /tmp is left out of the fixer's writable roots (see
    // the config): the home, with the alias codex execs outside its sandbox, stays out of the tools' reach.
    const tmpdir = confined ? undefined : join(home, "tmpdir");
    if (tmpdir !== undefined) await mkdir(tmpdir, { recursive: true, mode: 0o700 });

    const { upstream, endpoint } = this.#cli.endpoint(DEFAULT_BASE_URL);
    const appFiles = await this.#prepareHome(home, options.scope, endpoint.baseUrl, endpoint.apiKey !== undefined);
    const env = this.#cli.env({
      CODEX_HOME: home,
      HOME: home,
      TMPDIR: tmpdir,
      [API_KEY_ENV]: endpoint.apiKey,
      NO_COLOR: "1",
      RUST_LOG: "error",
    });
    const secrets = [this.#options.apiKey];
    return this.#cli.run(options, {
      agent: "codex",
      args,
      home,
      appFiles,
      runtimeSiblings: "codex-",
      env,
      upstream,
      api: "openai",
      authHeader: "authorization",
      model: await this.resolveModel(),
      interpret: (result) => this.#interpret(result, options, { asked, baseline, home, secrets }),
    });
  }

  /**
   * A resumed thread's token totals before this turn: its rollout's (put back first when it was imported for
   * this run), else what its last turn here reported.
   */
  async #resumedTotals(home: string, asked: string): Promise<CodexTokenTotals> {
    if (!THREAD_ID.test(asked))
      throw new AgentError("resume-failed", `codex: ${JSON.stringify(asked)} is not a thread id`);
    const packed = this.#pending.get(asked);
    if (packed) {
      this.#pending.delete(asked);
      await restoreRollout(home, packed);
    }
    let baseline: CodexTokenTotals = { input: 0, output: 0 };
    const rollout = await findRollout(home, asked);
    if (rollout) baseline = await readRolloutTotals(home, rollout);
    if (baseline.input === 0 && baseline.output === 0) baseline = this.#totals.get(asked) ?? baseline;
    return baseline;
  }

  /** The arguments of `codex exec`: options go before `resume` (exec-level; `resume` has no --sandbox). `-` reads the prompt from stdin. */
  #args(mode: string, asked: string | undefined): string[] {
    const args = [
      "exec",
      "--json",
      "--skip-git-repo-check",
      "--sandbox",
      mode,
      "--color",
      "never",
      // No execpolicy rules: a .rules file an earlier turn left in the home would steer which commands run,
      // and a malformed one makes codex exit before the turn starts ("Error loading rules").
      "--ignore-rules",
      ...(this.#options.extraArgs ?? []),
    ];
    if (asked !== undefined) args.push("resume", asked, "-");
    else args.push("-");
    return args;
  }

  #interpret(
    result: SandboxedResult,
    options: AgentRunOptions,
    turn: { asked: string | undefined; baseline: CodexTokenTotals; home: string; secrets: Array<string | undefined> },
  ): AgentResult {
    const { asked, baseline, home, secrets } = turn;

    const stopped = stoppedTurnError("codex", result, options);
    if (stopped) throw stopped;

    const events = parseCodexEvents(result.stdout);
    const failure =
      events.turnFailed ??
      (result.exitCode !== 0
        ? [events.errors.at(-1), stderrTail(result.stderr)].filter(Boolean).join("\n") ||
          `exit code ${result.exitCode ?? result.signal}`
        : undefined);
    if (failure !== undefined) {
      const kind = classifyCodexFailure(failure);
      const prefix =
        result.exitCode === 0 ? "codex: turn failed" : `codex exited with ${result.exitCode ?? result.signal}`;
      throw codexError(kind, `${prefix}: ${failure}`, secrets);
    }
    if (!events.threadId || !events.turnCompleted) {
      const what = !events.threadId ? "no thread.started event" : "no turn.completed event";
      throw codexError(
        "parse",
        `codex: unreadable output (${what}; ${events.events} events, ${events.unreadableLines} other lines${result.truncated ? ", truncated" : ""}): ${stderrTail(result.stderr, 500)}`,
        secrets,
      );
    }

    const threadId = events.threadId;
    const resumed = asked !== undefined && threadId === asked;
    const totals = events.usage ?? { input: 0, output: 0 };
    // A resumed thread reports its cumulative usage: this turn's share is the growth since before it.
    const base = resumed ? baseline : { input: 0, output: 0 };
    const growth = (now: number, before: number) => (now >= before ? now - before : now);
    const usage = {
      tokensIn: growth(totals.input, base.input),
      tokensOut: growth(totals.output, base.output),
      cacheReadTokens: growth(totals.cached ?? 0, base.cached ?? 0),
    };
    this.#homes.set(threadId, home);
    this.#totals.set(threadId, totals);
    if (this.#totals.size > 1024) this.#totals.delete(this.#totals.keys().next().value!);
    if (this.#homes.size > 1024) this.#homes.delete(this.#homes.keys().next().value!);

    const text = events.finalText ?? "";
    return { text, json: extractJson(text), sessionId: threadId, resumed, usage };
  }

  /**
   * config.toml is the app's: written afresh before every turn (never read, never written through
   * what the agent left there) and bound read-only over the home inside the sandbox.
   */
  async #prepareHome(home: string, scope: string | undefined, baseUrl: string, withKey: boolean): Promise<AppFile[]> {
    const appDir = codexAppDirFor(this.#options.homeDir, scope);
    return placeAppFiles(home, appDir, {
      "config.toml": this.#configToml(baseUrl, withKey),
      // Codex's global instructions, read from CODEX_HOME on every turn: empty, so nothing an earlier turn
      // wrote there reaches the model as instructions.
      "AGENTS.md": "",
      "AGENTS.override.md": "",
    });
  }

  #configToml(baseUrl: string, withKey: boolean): string {
    const s = (value: string) => JSON.stringify(value); // a TOML basic string
    const provider = [
      `[model_providers.${PROVIDER_ID}]`,
      `name = "no-mistakes"`,
      `base_url = ${s(baseUrl)}`,
      `wire_api = "responses"`,
      ...(withKey ? [`env_key = ${s(API_KEY_ENV)}`] : []),
      `request_max_retries = ${this.#options.requestMaxRetries ?? 1}`,
      `stream_max_retries = ${this.#options.streamMaxRetries ?? 1}`,
    ];
    return [
      "# Written by no-mistakes before every codex run; edits are overwritten.",
      `model = ${s(this.#options.model ?? DEFAULT_CODEX_MODEL)}`,
      `model_provider = "${PROVIDER_ID}"`,
      `approval_policy = "never"`,
      `check_for_update_on_startup = false`,
      // No project docs: AGENTS.md / AGENTS.override.md of the workspace are the PR head's (the maintainers'
      // guidelines come from the base commit, in the prompt).
      "project_doc_max_bytes = 0",
      "project_doc_fallback_filenames = []",
      "",
      ...provider,
      "",
      "[analytics]",
      "enabled = false",
      "",
      "[features]",
      "plugins = false",
      // No lifecycle hooks: a hooks.json in the home (an earlier turn's) or the workspace (the PR head's) would
      // run its commands outside the model's tool calls and add its output to the model's context.
      "hooks = false",
      "",
      // No skill catalog: skills of the workspace (.agents/skills, .codex/skills) and of the home would be
      // listed to the model as instructions; bundled ones are not wanted either.
      "[skills]",
      "include_instructions = false",
      "",
      "[skills.bundled]",
      "enabled = false",
      "",
      // workspace-write (unconfined fixer): the workspace and $TMPDIR are writable, /tmp is not.
      "[sandbox_workspace_write]",
      "exclude_slash_tmp = true",
      "",
      // Commands the model runs see only a core environment (never the API key).
      "[shell_environment_policy]",
      `inherit = "core"`,
      "",
    ].join("\n");
  }

  async #export(threadId: string, scope: string | undefined): Promise<Uint8Array | undefined> {
    if (!THREAD_ID.test(threadId)) return undefined;
    const known = scope !== undefined ? codexHomeFor(this.#options.homeDir, scope) : this.#homes.get(threadId);
    const homes = known ? [known] : await this.#allHomes();
    for (const home of homes) {
      const rollout = await findRollout(home, threadId);
      if (rollout) return packRollout(home, rollout, threadId);
    }
    return undefined;
  }

  async #allHomes(): Promise<string[]> {
    const root = join(this.#options.homeDir, "codex");
    const names = await readdir(root).catch(() => [] as string[]);
    const homes: string[] = [];
    for (const name of names) if (await isDirectory(join(root, name))) homes.push(join(root, name));
    return homes;
  }
}
