import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { runInBackground } from "./run-in-background.js";

const SCRIPT = fileURLToPath(new URL("./launcher-process.mjs", import.meta.url));

export interface LaunchRequest {
  file: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Written to the command's stdin (stdin is empty otherwise). */
  input?: string | Buffer | undefined;
  /** Kill the command's process group after this long. */
  timeoutMs: number;
  /** Kill the command once its stdout passes this many bytes (its output is then dropped). */
  maxOutputBytes?: number | undefined;
}

export interface LaunchResult {
  /** Null when it was killed by a signal. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** The command wrote more than `maxOutputBytes` to stdout and was killed. */
  overLimit: boolean;
  stdout: Buffer;
  stderr: Buffer;
  /** Set when the command could not be started (or the launcher went away while it ran). */
  startError?: string;
}

interface Done {
  type: "done";
  id: number;
  exitCode?: number | null;
  signal?: NodeJS.Signals | null;
  timedOut?: boolean;
  overLimit?: boolean;
  stdout?: Uint8Array;
  stderr?: Uint8Array;
  error?: { message: string };
}

/**
 * Starts short-lived commands (git) from a small helper process instead of this one: Node forks on the
 * thread that calls spawn(), and the fork copies this process's page tables — milliseconds per command
 * in a large app process, on the event loop that answers webhooks. The helper is started at the first
 * command, restarted after it dies, never keeps this process alive while idle, and takes its running
 * commands with it when this process goes away.
 */
export class ProcessLauncher {
  #child: ChildProcess | undefined;
  #next = 0;
  readonly #pending = new Map<number, (result: LaunchResult) => void>();

  run(request: LaunchRequest): Promise<LaunchResult> {
    const child = this.#launcher();
    const id = ++this.#next;
    return new Promise<LaunchResult>((resolve) => {
      this.#pending.set(id, resolve);
      this.#ref(child);
      child.send({ type: "run", id, ...request, args: [...request.args] }, (error) => {
        if (error) this.#settle(id, gone(`could not reach the process launcher: ${error.message}`));
      });
    });
  }

  /** The helper's pid while it runs. */
  get pid(): number | undefined {
    return this.#child?.connected ? this.#child.pid : undefined;
  }

  /** Stops the helper (its running commands are killed). */
  stop(): void {
    const child = this.#child;
    this.#child = undefined;
    if (child?.connected) child.disconnect();
  }

  #launcher(): ChildProcess {
    if (this.#child?.connected) return this.#child;
    const env = { ...process.env };
    delete env.NODE_OPTIONS; // no loaders or preloads of the app's own start: the helper is plain JavaScript
    const child = fork(SCRIPT, [], {
      env,
      execArgv: [],
      serialization: "advanced", // Buffers cross as bytes
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    });
    runInBackground(child.pid); // git's work is review work: it waits for the webhooks' thread, not the other way round
    child.on("message", (message: Done) => {
      if (message?.type !== "done") return;
      this.#settle(message.id, {
        exitCode: message.exitCode ?? null,
        signal: message.signal ?? null,
        timedOut: message.timedOut ?? false,
        overLimit: message.overLimit ?? false,
        stdout: Buffer.from(message.stdout ?? new Uint8Array()),
        stderr: Buffer.from(message.stderr ?? new Uint8Array()),
        startError: message.error?.message,
      });
    });
    const lost = () => {
      if (this.#child === child) this.#child = undefined;
      for (const id of [...this.#pending.keys()]) this.#settle(id, gone("the process launcher exited"));
    };
    child.once("exit", lost);
    child.once("error", lost);
    this.#child = child;
    this.#unref(child);
    return child;
  }

  #settle(id: number, result: LaunchResult): void {
    const resolve = this.#pending.get(id);
    if (!resolve) return;
    this.#pending.delete(id);
    resolve(result);
    if (this.#pending.size === 0 && this.#child) this.#unref(this.#child);
  }

  // While commands run, the helper keeps this process alive (their answers are awaited); idle, it does not.
  #ref(child: ChildProcess): void {
    child.ref();
    (child.channel as { ref?: () => void } | undefined)?.ref?.();
  }

  #unref(child: ChildProcess): void {
    child.unref();
    (child.channel as { unref?: () => void } | undefined)?.unref?.();
  }
}

function gone(message: string): LaunchResult {
  return {
    exitCode: null,
    signal: null,
    timedOut: false,
    overLimit: false,
    stdout: Buffer.alloc(0),
    stderr: Buffer.alloc(0),
    startError: message,
  };
}

let shared: ProcessLauncher | undefined;

/** This process's launcher. */
export function processLauncher(): ProcessLauncher {
  shared ??= new ProcessLauncher();
  return shared;
}
