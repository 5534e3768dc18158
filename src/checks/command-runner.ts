import { mkdtemp, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { realpathSync } from "node:fs";
import { toAgentError } from "../agents/agent-error.js";
import type { AgentSandbox } from "../agents/sandbox/agent-sandbox.js";
import { startEgressProxy, type EgressProxy } from "./egress-proxy.js";
import type { ExecutionResult, ExecutionSpec } from "./execution.js";
import { outputTail } from "./output-tail.js";
import { Semaphore } from "./semaphore.js";

export interface CommandRunnerOptions {
  /** A layered bubblewrap sandbox: the PR's commands never run anywhere else. */
  sandbox: AgentSandbox;
  /** Where each run's throwaway home and sockets go (on the app's side, never shown to another run). */
  scratchDir: string;
  /** How many commands run at once on this worker; the rest wait. */
  concurrency: number;
  /** Told of each connection a setup's egress proxy refused (the wiring counts them). */
  onEgressRefused?: () => void;
}

/**
 * Runs the repository's own commands (setup, checks, reproducers) as the agent's turns run: in the sandbox,
 * on a scratch checkout whose changes are thrown away, with a throwaway home, no GitHub token, no model key
 * and no model at all; with no network, or (a setup) only the registries its rules allow, through an egress
 * proxy the app runs. Whatever the command does, the answer is the app's record of it.
 */
export class CommandRunner {
  readonly #options: CommandRunnerOptions;
  readonly #slots: Semaphore;

  constructor(options: CommandRunnerOptions) {
    this.#options = options;
    this.#slots = new Semaphore(options.concurrency);
  }

  /** Whether commands can run here at all, and why not. */
  unavailable(): string | undefined {
    const { sandbox } = this.#options;
    if (sandbox.kind !== "bubblewrap")
      return "the agent sandbox is off (AGENT_SANDBOX=off): the PR's code never runs unconfined";
    if (sandbox.workspaceBound?.kind === "sampled")
      return `this host cannot layer a sandboxed run (${sandbox.workspaceBound.reason})`;
    return undefined;
  }

  async run(spec: ExecutionSpec): Promise<ExecutionResult> {
    const refusal = this.unavailable();
    if (refusal !== undefined) return failed(refusal);
    return this.#slots.use(() => this.#runNow(spec));
  }

  async #runNow(spec: ExecutionSpec): Promise<ExecutionResult> {
    const dir = await mkdtemp(join(this.#options.scratchDir, `nm-${spec.kind}-`));
    let egress: EgressProxy | undefined;
    const started = Date.now();
    try {
      if (spec.registries)
        egress = await startEgressProxy(join(dir, "egress.sock"), spec.registries, this.#options.onEgressRefused);
      const home = await mkdtemp(join(dir, "home-"));
      const result = await this.#options.sandbox.run({
        command: "/bin/sh",
        args: ["-c", spec.command],
        workspace: spec.workspace,
        // the same path whatever the worker's disk looks like: outputs name /workspace, never the host's folders
        mountAt: "/workspace",
        writable: true,
        discard: true,
        ...(spec.layers ? { layers: spec.layers } : {}),
        ...(spec.saveTo ? { saveTo: spec.saveTo } : {}),
        ...(egress ? { egress: egress.socket } : {}),
        home,
        runtime: [nodePrefix()],
        env: { ...commandEnv(dirname(process.execPath)), HOME: home },
        stdin: "",
        timeoutMs: spec.timeoutMs,
        killGraceMs: 2000,
        ...(spec.signal ? { signal: spec.signal } : {}),
      });
      const { output, digest } = outputTail(result.stdout, result.stderr);
      return {
        exitCode: result.exitCode,
        signal: result.signal,
        timedOut: result.timedOut,
        durationMs: Date.now() - started,
        output,
        outputDigest: digest,
        ...(egress ? { egress: { allowed: [...egress.allowed], refused: [...egress.refused] } } : {}),
      };
    } catch (error) {
      const failure = toAgentError(error);
      const stopped = failure.kind === "limit" ? { limit: failure.message } : { error: failure.message };
      return { ...failed(""), ...stopped, durationMs: Date.now() - started };
    } finally {
      await egress?.close();
      await rm(dir, { recursive: true, force: true });
    }
  }
}

function failed(error: string): ExecutionResult {
  const { output, digest } = outputTail("", "");
  return { exitCode: null, signal: null, timedOut: false, error, durationMs: 0, output, outputDigest: digest };
}

/** node's install prefix, for repositories whose commands run node (under /usr it is there already). */
function nodePrefix(): string {
  return dirname(dirname(realpathSync(process.execPath)));
}

/** What a repository's command sees of an environment: a PATH with node, a locale, CI=true, and nothing of the app's. */
function commandEnv(nodeBin: string): Record<string, string> {
  return {
    PATH: [nodeBin, "/usr/local/bin", "/usr/bin", "/bin"].join(":"),
    LANG: "C.UTF-8",
    CI: "true",
    NO_COLOR: "1",
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
    PIP_DISABLE_PIP_VERSION_CHECK: "1",
    PYTHONDONTWRITEBYTECODE: "1",
  };
}
