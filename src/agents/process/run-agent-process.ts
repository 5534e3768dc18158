import { spawn } from "node:child_process";
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
  const cap = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  const grace = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;

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
    let child: ReturnType<typeof spawn>;
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

    const stdout = new TailBuffer(cap);
    const stderr = new TailBuffer(cap);
    let timedOut = false;
    let cancelled = false;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let exited = false;
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;
    let closeTimer: NodeJS.Timeout | undefined;
    const pgid = child.pid;

    const terminate = (): void => {
      if (pgid === undefined || exited || killTimer) return;
      killGroup(pgid, "SIGTERM");
      killTimer = setTimeout(() => killGroup(pgid, "SIGKILL"), grace);
      killTimer.unref();
    };

    const timeout = setTimeout(() => {
      timedOut = true;
      terminate();
    }, options.timeoutMs);
    const onAbort = (): void => {
      cancelled = true;
      terminate();
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });

    const cleanup = (): void => {
      clearTimeout(timeout);
      if (killTimer) clearTimeout(killTimer);
      if (closeTimer) clearTimeout(closeTimer);
      options.signal?.removeEventListener("abort", onAbort);
      if (pgid !== undefined) liveGroups.delete(pgid);
    };

    const finish = (): void => {
      if (settled) return;
      settled = true;
      cleanup();
      resolve({
        exitCode,
        signal: exitSignal,
        stdout: stdout.toString(),
        stderr: stderr.toString(),
        timedOut,
        cancelled,
        truncated: stdout.truncated || stderr.truncated,
        durationMs: Date.now() - started,
      });
    };

    child.on("error", (error) => {
      if (settled) return;
      if (pgid === undefined) {
        settled = true;
        cleanup();
        reject(spawnError(options.command, error));
      }
      // Errors after a successful spawn (a failed kill) change nothing: exit/close still come.
    });

    if (pgid !== undefined) {
      installExitHook();
      liveGroups.add(pgid);
      options.onSpawn?.(pgid);
    }

    child.stdout!.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr!.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.stdin!.on("error", () => {
      // EPIPE: the child exited without reading its stdin; its exit code tells the story
    });
    child.stdin!.end(options.stdin);

    child.on("exit", (code, signal) => {
      exited = true;
      exitCode = code;
      exitSignal = signal;
      // The leader is gone: nothing of its group may outlive the call.
      if (pgid !== undefined) killGroup(pgid, "SIGKILL");
      closeTimer = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish();
      }, CLOSE_WAIT_MS);
      closeTimer.unref();
    });
    child.on("close", () => {
      if (exited) finish();
    });
  });
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
