import { spawn, type ChildProcess } from "node:child_process";
import { AgentError } from "../agent-error.js";

export interface AgentProcessOptions {
  command: string;
  args: string[];
  cwd: string;
  /** The complete environment of the child (nothing is inherited): build it with buildAgentEnv. */
  env: Record<string, string>;
  /** Written to the child's stdin, which is then closed. */
  stdin: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Per stream; default 16 MiB. Past it, only the LAST maxOutputBytes are kept (the tail). */
  maxOutputBytes?: number;
  /** Time between SIGTERM and SIGKILL of the process group; default 5000. */
  killGraceMs?: number;
  /** Called with the child's pid once it is started. */
  onSpawn?: (pid: number) => void;
}

export interface AgentProcessResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  cancelled: boolean;
  /** True when stdout or stderr went past maxOutputBytes (their heads were dropped). */
  truncated: boolean;
  durationMs: number;
}

const DEFAULT_MAX_OUTPUT = 16 * 1024 * 1024;
const DEFAULT_KILL_GRACE_MS = 5000;
/** After the leader exits, its stdio should close at once (the group is killed); never wait longer than this. */
const CLOSE_WAIT_MS = 2000;

/** Process groups still alive, killed if this process exits first. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const pgid of liveGroups) killGroup(pgid, "SIGKILL");
  });
}

function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone
  }
}

/** Keeps the last `cap` bytes written to it. */
class TailBuffer {
  #chunks: Buffer[] = [];
  #size = 0;
  truncated = false;
  constructor(readonly cap: number) {}

  push(chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#size += chunk.length;
    while (this.#size > this.cap) {
      this.truncated = true;
      const first = this.#chunks[0]!;
      const excess = this.#size - this.cap;
      if (first.length <= excess) {
        this.#chunks.shift();
        this.#size -= first.length;
      } else {
        this.#chunks[0] = first.subarray(excess);
        this.#size -= excess;
      }
    }
  }

  toString(): string {
    return Buffer.concat(this.#chunks).toString("utf8");
  }
}

/**
 * Runs an agent CLI as the leader of its own process group, with its stdin fed and closed.
 * On timeout or abort the whole group gets SIGTERM, then SIGKILL after killGraceMs; when the leader
 * exits (for any reason) whatever is left of its group is SIGKILLed, so no tool process outlives
 * the call. (A process that moves itself to another session/group escapes this; that needs a
 * container or cgroup.) Output past the cap keeps its tail, where CLIs print their result and errors.
 *
 * Resolves with the outcome, whatever the exit code; rejects only with AgentError("spawn") when the
 * binary cannot be started (ENOENT, EACCES, bad cwd).
 */
export function runAgentProcess(options: AgentProcessOptions): Promise<AgentProcessResult> {
  const started = Date.now();
  if (options.signal?.aborted) {
    return Promise.resolve({
      exitCode: null,
      signal: null,
      stdout: "",
      stderr: "",
      timedOut: false,
      cancelled: true,
      truncated: false,
      durationMs: 0,
    });
  }

  return new Promise<AgentProcessResult>((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawn(options.command, options.args, {
        cwd: options.cwd,
        env: options.env,
        detached: true,
        stdio: ["pipe", "pipe", "pipe"],
      });
    } catch (error) {
      reject(spawnError(options.command, error));
      return;
    }
    new AgentProcessRun(child, options, started, { resolve, reject });
  });
}

/**
 * One child, from its start to its outcome: its output kept (the tail past the cap), its time limit and the
 * caller's cancel armed, its group killed once it exits, and the outcome settled once, when its stdio closes.
 */
class AgentProcessRun {
  readonly #stdout: TailBuffer;
  readonly #stderr: TailBuffer;
  readonly #pgid: number | undefined;
  readonly #timeout: NodeJS.Timeout;
  #timedOut = false;
  #cancelled = false;
  #exitCode: number | null = null;
  #exitSignal: NodeJS.Signals | null = null;
  #exited = false;
  #settled = false;
  #killTimer: NodeJS.Timeout | undefined;
  #closeTimer: NodeJS.Timeout | undefined;
  readonly #onAbort = (): void => {
    this.#cancelled = true;
    this.#terminate();
  };

  constructor(
    private readonly child: ChildProcess,
    private readonly options: AgentProcessOptions,
    private readonly started: number,
    private readonly settle: {
      resolve: (result: AgentProcessResult) => void;
      reject: (error: AgentError) => void;
    },
  ) {
    const cap = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
    this.#stdout = new TailBuffer(cap);
    this.#stderr = new TailBuffer(cap);
    this.#pgid = child.pid;
    this.#timeout = setTimeout(() => {
      this.#timedOut = true;
      this.#terminate();
    }, options.timeoutMs);
    options.signal?.addEventListener("abort", this.#onAbort, { once: true });
    child.on("error", (error) => this.#failed(error));
    if (this.#pgid !== undefined) {
      installExitHook();
      liveGroups.add(this.#pgid);
      options.onSpawn?.(this.#pgid);
    }
    this.#feed();
    child.on("exit", (code, signal) => this.#leaderExited(code, signal));
    child.on("close", () => {
      if (this.#exited) this.#finish();
    });
  }

  /** The output read as it comes, the prompt written to stdin, and stdin closed. */
  #feed(): void {
    const child = this.child;
    child.stdout!.on("data", (chunk: Buffer) => this.#stdout.push(chunk));
    child.stderr!.on("data", (chunk: Buffer) => this.#stderr.push(chunk));
    child.stdin!.on("error", () => {
      // EPIPE: the child exited without reading its stdin; its exit code tells the story
    });
    child.stdin!.end(this.options.stdin);
  }

  /** SIGTERM to the group, then SIGKILL after the grace (once, and only while the leader lives). */
  #terminate(): void {
    const pgid = this.#pgid;
    if (pgid === undefined || this.#exited || this.#killTimer) return;
    killGroup(pgid, "SIGTERM");
    this.#killTimer = setTimeout(() => killGroup(pgid, "SIGKILL"), this.options.killGraceMs ?? DEFAULT_KILL_GRACE_MS);
    this.#killTimer.unref();
  }

  #failed(error: Error): void {
    if (this.#settled) return;
    if (this.#pgid === undefined) {
      this.#settled = true;
      this.#cleanup();
      this.settle.reject(spawnError(this.options.command, error));
    }
    // Errors after a successful spawn (a failed kill) change nothing: exit/close still come.
  }

  #leaderExited(code: number | null, signal: NodeJS.Signals | null): void {
    this.#exited = true;
    this.#exitCode = code;
    this.#exitSignal = signal;
    // The leader is gone: nothing of its group may outlive the call.
    if (this.#pgid !== undefined) killGroup(this.#pgid, "SIGKILL");
    this.#closeTimer = setTimeout(() => {
      this.child.stdout?.destroy();
      this.child.stderr?.destroy();
      this.#finish();
    }, CLOSE_WAIT_MS);
    this.#closeTimer.unref();
  }

  #cleanup(): void {
    clearTimeout(this.#timeout);
    if (this.#killTimer) clearTimeout(this.#killTimer);
    if (this.#closeTimer) clearTimeout(this.#closeTimer);
    this.options.signal?.removeEventListener("abort", this.#onAbort);
    if (this.#pgid !== undefined) liveGroups.delete(this.#pgid);
  }

  #finish(): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#cleanup();
    this.settle.resolve({
      exitCode: this.#exitCode,
      signal: this.#exitSignal,
      stdout: this.#stdout.toString(),
      stderr: this.#stderr.toString(),
      timedOut: this.#timedOut,
      cancelled: this.#cancelled,
      truncated: this.#stdout.truncated || this.#stderr.truncated,
      durationMs: Date.now() - this.started,
    });
  }
}

function spawnError(command: string, error: unknown): AgentError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason =
    code === "ENOENT"
      ? "not found"
      : code === "EACCES"
        ? "not executable"
        : ((error as Error)?.message ?? String(error));
  return new AgentError("spawn", `agent CLI ${command} could not be started: ${reason}${code ? ` (${code})` : ""}`, {
    cause: error,
  });
}
