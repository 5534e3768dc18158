import { constants } from "node:fs";
import { access, lstat, mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { AgentError } from "../agent-error.js";
import type { AgentModel } from "../agent-model.js";
import { extractJson } from "../extract-json.js";
import { placeAppFiles, writeHomeFile, type AppFile } from "../sandbox/agent-home-files.js";
import type { SandboxedResult } from "../sandbox/agent-sandbox.js";
import { SandboxedCli, stoppedTurnError, type SandboxedCliOptions } from "../sandbox/sandboxed-cli.js";
import type { Agent, AgentResult, AgentRunOptions, PortableSessions, Role } from "../types.js";
import {
  classifyGeminiFailure,
  geminiError,
  geminiStderrTail,
  geminiUsage,
  parseGeminiOutput,
} from "./gemini-output.js";
import { exportGeminiSession, importGeminiSession, isGeminiSessionId } from "./gemini-sessions.js";
import { GEMINI_HOME_DIRS, GEMINI_HOME_FILES, geminiHiddenPaths, geminiSettings } from "./gemini-settings.js";

/** The pinned CLI of this package. */
export const DEFAULT_GEMINI_CLI = fileURLToPath(new URL("../../../node_modules/.bin/gemini", import.meta.url));
/** The model when AGENT_MODEL names none: always pinned (`auto` first asks another model which to use). */
export const DEFAULT_GEMINI_MODEL = "gemini-2.5-pro";
const DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com";
/** Where the system settings appear inside the sandbox: under no folder the agent may write. */
const SANDBOX_SYSTEM_SETTINGS = "/etc/gemini-cli/settings.json";

export interface GeminiAgentOptions extends SandboxedCliOptions {
  /** A call's HOME is `<homeDir>/gemini/<scope ?? "default">` (one per run and role); the CLI keeps `.gemini/` there. */
  homeDir: string;
  /** Path of the `gemini` script; default DEFAULT_GEMINI_CLI. */
  cli?: string;
  /** The one model the CLI runs (`-m`) and the proxy lets through; default DEFAULT_GEMINI_MODEL. */
  model?: string;
  /** GOOGLE_GEMINI_BASE_URL: the Gemini API's base (no version). Default https://generativelanguage.googleapis.com. */
  baseUrl?: string;
}

/** The HOME of a scope (one per run and role), under the agents' home dir. */
export function geminiHomeFor(homeDir: string, scope?: string): string {
  const name = scope === undefined || scope === "" ? "default" : scope;
  if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new AgentError("other", `gemini: invalid scope ${JSON.stringify(name)}`);
  return join(homeDir, "gemini", name);
}

/**
 * Gemini CLI, headless: the prompt on stdin, `--output-format json`, the model pinned, the reviewer and
 * verifier with read and search tools only, the fixer with file edits too (`--approval-mode auto_edit`,
 * never a shell). Settings are the app's (user and system, read-only inside the sandbox); what the CLI reads
 * of the workspace whatever its settings say (GEMINI.md, `.gemini/`, `.env`) is hidden. Sessions resume by
 * id (`--resume`); their chats file is exported after a turn and put back before a resume when missing.
 */
export class GeminiAgent implements Agent {
  readonly name = "gemini";
  readonly supportsResume = true;
  readonly portable: PortableSessions;
  readonly #options: GeminiAgentOptions;
  readonly #cli: SandboxedCli;

  constructor(options: GeminiAgentOptions) {
    this.#options = options;
    this.#cli = new SandboxedCli(options, DEFAULT_GEMINI_CLI);
    this.portable = {
      exportSession: (sessionId, cwd, scope) => exportGeminiSession(this.home(scope), sessionId, cwd),
      importSession: (sessionId, cwd, state, scope) => importGeminiSession(this.home(scope), sessionId, cwd, state),
    };
  }

  /** The HOME of a scope. */
  home(scope?: string): string {
    return geminiHomeFor(this.#options.homeDir, scope);
  }

  /**
   * Gemini CLI sends the model it is given as it is (`-m`), in the request's path: nothing to ask the CLI,
   * only whether it is there to run.
   */
  async resolveModel(): Promise<AgentModel> {
    const cli = this.#cli.path;
    await access(cli, constants.X_OK).catch((error: NodeJS.ErrnoException) => {
      throw new AgentError("spawn", `gemini CLI ${cli} cannot be run (${error.code ?? error.message})`);
    });
    const configured = this.#options.model ?? DEFAULT_GEMINI_MODEL;
    return { configured, isDefault: this.#options.model === undefined, sent: configured };
  }

  /** The CLI arguments of a call (the prompt goes on stdin). */
  args(options: Pick<AgentRunOptions, "role" | "sessionId">): string[] {
    const args = ["--skip-trust", "--output-format", "json", "-m", this.#options.model ?? DEFAULT_GEMINI_MODEL];
    args.push("--approval-mode", options.role === "fixer" ? "auto_edit" : "default");
    // no extensions, wherever they were installed
    args.push("--extensions", "none");
    if (options.sessionId !== undefined) args.push("--resume", options.sessionId);
    args.push(...(this.#options.extraArgs ?? []));
    return args;
  }

  async run(options: AgentRunOptions): Promise<AgentResult> {
    if (options.signal?.aborted) throw new AgentError("cancelled", "gemini: cancelled before it started");
    const asked = options.sessionId;
    // `--resume` also takes `latest` and list indexes: anything but a session id would resume another session
    if (asked !== undefined && !isGeminiSessionId(asked))
      throw new AgentError("resume-failed", `gemini: ${JSON.stringify(asked)} is not a session id`);
    const home = this.home(options.scope);
    const confined = this.#cli.sandbox.kind !== "off";
    const { appFiles, systemSettings } = await this.#prepareHome(home, options.scope, options.role, confined);
    const { upstream, endpoint } = this.#cli.endpoint(DEFAULT_BASE_URL);
    const env = this.#cli.env({
      HOME: home,
      GEMINI_API_KEY: endpoint.apiKey,
      GOOGLE_GEMINI_BASE_URL: endpoint.baseUrl,
      GEMINI_CLI_SYSTEM_SETTINGS_PATH: systemSettings,
      // no relaunch of itself in a child node, no sandbox of its own (ours confines it), no colours
      GEMINI_CLI_NO_RELAUNCH: "true",
      GEMINI_SANDBOX: "false",
      NO_COLOR: "1",
    });
    return this.#cli.run(options, {
      agent: "gemini",
      args: this.args(options),
      home,
      appFiles,
      hidden: geminiHiddenPaths(options.cwd, home),
      env,
      upstream,
      api: "gemini",
      authHeader: "x-goog-api-key",
      model: await this.resolveModel(),
      interpret: (result) => this.#interpret(result, options),
    });
  }

  #interpret(result: SandboxedResult, options: AgentRunOptions): AgentResult {
    const secrets = [this.#options.apiKey];
    const stopped = stoppedTurnError("gemini", result, options);
    if (stopped) throw stopped;
    const output = parseGeminiOutput(result.stdout);
    const stderr = geminiStderrTail(result.stderr);
    if (result.exitCode !== 0 || output?.error) {
      const detail = [output?.error?.message, stderr].filter(Boolean).join("\n") || "no output";
      const kind = classifyGeminiFailure(result.exitCode, detail, options.sessionId !== undefined);
      throw geminiError(kind, `gemini exited with ${result.exitCode ?? result.signal}: ${detail}`, secrets);
    }
    if (!output?.session_id)
      throw geminiError(
        "parse",
        `gemini: unreadable output (no session id${result.truncated ? ", truncated" : ""}): ${stderr || result.stdout.slice(0, 300)}`,
        secrets,
      );
    const text = output.response ?? "";
    return {
      text,
      json: extractJson(text),
      sessionId: output.session_id,
      resumed: options.sessionId !== undefined && output.session_id === options.sessionId,
      usage: geminiUsage(output),
    };
  }

  /**
   * The app's settings, written afresh before every turn: as the user settings in the home (bound read-only
   * over it inside the sandbox) and as the system settings — inside the sandbox at a path under no folder the
   * agent may write (the CLI skips a system file under a folder others may write), outside it in the app's own
   * folder.
   */
  async #prepareHome(
    home: string,
    scope: string | undefined,
    role: Role,
    confined: boolean,
  ): Promise<{ appFiles: AppFile[]; systemSettings: string }> {
    const appDir = join(this.#options.homeDir, "app", "gemini", scope ?? "default", role);
    const settings = `${JSON.stringify(geminiSettings(role), null, 2)}\n`;
    try {
      // the home is the agent's during a turn: a `.gemini`, `tmp` or chats folder that is not a real folder
      // (a link out of the home) is removed before the app writes anything there
      for (const dir of [home, join(home, ".gemini"), join(home, ".gemini", "tmp")]) {
        const stat = await lstat(dir).catch(() => undefined);
        if (stat && !stat.isDirectory()) await rm(dir, { force: true });
      }
      await mkdir(join(home, ".gemini"), { recursive: true, mode: 0o700 });
      for (const dir of GEMINI_HOME_DIRS) {
        await rm(join(home, dir), { recursive: true, force: true }); // never follows a link: removes it
        await mkdir(join(home, dir), { recursive: true });
      }
      const appFiles = await placeAppFiles(home, appDir, {
        ".gemini/settings.json": settings,
        ...GEMINI_HOME_FILES,
      });
      const system = join(appDir, "system-settings.json");
      await writeHomeFile(appDir, system, settings, 0o644);
      if (!confined) return { appFiles, systemSettings: system };
      return {
        appFiles: [...appFiles, { source: system, target: SANDBOX_SYSTEM_SETTINGS }],
        systemSettings: SANDBOX_SYSTEM_SETTINGS,
      };
    } catch (error) {
      throw new AgentError("spawn", `gemini home ${home} could not be prepared: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
}
