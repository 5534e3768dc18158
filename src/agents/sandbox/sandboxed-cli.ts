import { AgentError } from "../agent-error.js";
import type { AgentModel } from "../agent-model.js";
import { interpretMetered } from "../metered-usage.js";
import { buildAgentEnv } from "../process/build-agent-env.js";
import type { AgentResult, AgentRunOptions } from "../types.js";
import type { AppFile } from "./agent-home-files.js";
import type { AgentSandbox, SandboxedResult } from "./agent-sandbox.js";
import { BubblewrapSandbox } from "./bubblewrap-sandbox.js";
import { cliRuntimePaths } from "./cli-runtime.js";
import { modelPolicyFor, type ModelApi } from "./model-policy.js";
import type { ModelEndpoint } from "./model-route.js";

/** What every CLI adapter is configured with (each adds its own). */
export interface SandboxedCliOptions {
  /** The agents' home dir: an adapter keeps one home per scope (run and role) below it. */
  homeDir: string;
  /** Path of the CLI; default the adapter's pinned one. */
  cli?: string;
  /** The one model the CLI runs and the proxy lets through; default the adapter's. */
  model?: string;
  /** The model API's real base; default the adapter's. */
  baseUrl?: string;
  apiKey?: string;
  /** Output cap of every model request (AGENT_MAX_OUTPUT_TOKENS); default DEFAULT_MAX_OUTPUT_TOKENS. */
  maxOutputTokens?: number;
  /** Let server-side tools (web search, code execution, MCP servers) through the proxy (AGENT_SERVER_TOOLS=on). */
  serverTools?: boolean;
  /** Appended to every invocation (AGENT_ARGS). */
  extraArgs?: string[];
  /** SIGTERM → SIGKILL grace of the process group on timeout/cancel; default 5000. */
  killGraceMs?: number;
  /** The environment allowlisted variables are taken from; default process.env. */
  baseEnv?: NodeJS.ProcessEnv;
  /** Where the CLI runs; default bubblewrap (AGENT_SANDBOX=off gives the unconfined one). */
  sandbox?: AgentSandbox;
}

/** One turn of a CLI: what only its adapter knows. */
export interface CliTurn {
  /** The adapter's name, in what the proxy measured. */
  agent: string;
  args: string[];
  home: string;
  appFiles: AppFile[];
  /** Paths the CLI reads by itself whatever its settings say, shown to it empty. */
  hidden?: string[];
  /** Packages of the CLI's scope it needs too (its native binary's). */
  runtimeSiblings?: string;
  env: Record<string, string>;
  /** The model API: its real base, which API it speaks, the header its key goes in, and the model that passes. */
  upstream: string;
  api: ModelApi;
  authHeader: "x-api-key" | "x-goog-api-key" | "authorization";
  model: AgentModel;
  /** The CLI's output read: the turn's result, or the error it ends with. */
  interpret: (result: SandboxedResult) => AgentResult;
}

/**
 * A CLI adapter's runner: where its CLI is, the sandbox it runs in, and the run of one turn through it — the
 * workspace (writable for the fixer), the home with the app's files, the prompt on stdin, the model API
 * reached through the proxy with the real key added outside, and what the proxy measured kept over what the
 * CLI says.
 */
export class SandboxedCli {
  readonly sandbox: AgentSandbox;

  constructor(
    private readonly options: SandboxedCliOptions,
    private readonly pinned: string,
  ) {
    this.sandbox = options.sandbox ?? new BubblewrapSandbox();
  }

  /** The CLI's path: the configured one, else the pinned one. */
  get path(): string {
    return this.options.cli ?? this.pinned;
  }

  /** The model API's real base (the configured one, else `fallback`) and what the CLI is told of it. */
  endpoint(fallback: string): { upstream: string; endpoint: ModelEndpoint } {
    const upstream = this.options.baseUrl ?? fallback;
    return { upstream, endpoint: this.sandbox.modelEndpoint({ baseUrl: upstream, apiKey: this.options.apiKey }) };
  }

  /** The CLI's whole environment: the allowlist of the parent's, and the adapter's own. */
  env(own: Record<string, string | undefined>): Record<string, string> {
    return buildAgentEnv(own, this.options.baseEnv);
  }

  async run(options: AgentRunOptions, turn: CliTurn): Promise<AgentResult> {
    const key = this.options.apiKey;
    const result = await this.sandbox.run({
      command: this.path,
      args: turn.args,
      workspace: options.cwd,
      writable: options.role === "fixer",
      home: turn.home,
      appFiles: turn.appFiles,
      ...(turn.hidden ? { hidden: turn.hidden } : {}),
      runtime: cliRuntimePaths(this.path, turn.runtimeSiblings),
      env: turn.env,
      stdin: options.prompt,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      killGraceMs: this.options.killGraceMs,
      model: {
        upstream: turn.upstream,
        auth: key
          ? { header: turn.authHeader, value: turn.authHeader === "authorization" ? `Bearer ${key}` : key }
          : undefined,
        policy: modelPolicyFor(turn.api, turn.model, this.options),
      },
      budget: options.budget,
    });
    return interpretMetered(turn.agent, result.metered, () => turn.interpret(result));
  }
}

/** The error of a turn that was cancelled or ran past its time limit, if it was. */
export function stoppedTurnError(
  agent: string,
  result: SandboxedResult,
  options: AgentRunOptions,
): AgentError | undefined {
  if (result.cancelled || options.signal?.aborted)
    return new AgentError("cancelled", `${agent}: cancelled after ${result.durationMs} ms`);
  if (result.timedOut) return new AgentError("timeout", `${agent}: timed out after ${options.timeoutMs} ms`);
  return undefined;
}
