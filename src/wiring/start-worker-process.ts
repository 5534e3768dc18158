import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Logger } from "pino";
import type { MetricObjectWithValues, MetricValue } from "prom-client";
import { workerExecArgv } from "../system/app-node-options.js";
import { EMBEDDED_SOCKET_ENV, type FromWorker, type ToWorker } from "./worker-messages.js";

/** The entry beside this module: TypeScript under tsx (`npm start`), JavaScript when compiled. */
const ENTRY = fileURLToPath(
  new URL(import.meta.url.endsWith(".ts") ? "./worker-process.ts" : "./worker-process.js", import.meta.url),
);
const FIRST_RESTART_MS = 1_000;
const LAST_RESTART_MS = 30_000;
/** A worker process that ran this long before it died is restarted after the first delay again. */
const STEADY_MS = 60_000;
const METRICS_TIMEOUT_MS = 2_000;
/** The first delivery sweep after start when no worker process runs then (a running one sweeps 10 s after its start). */
const FIRST_SWEEP_MS = 10_000;

export interface WorkerProcessOptions {
  log: Logger;
  embeddedSocket?: string;
  /**
   * WORKER_IDLE_EXIT: the worker process asks to exit after this long with nothing to do; it is then
   * stopped (the stop path, `stopGraceMs`) and started again by `wake`. `null`: it runs all along.
   */
  idleExitMs?: number | null;
  /** Whether any job is running, waiting or retrying (after an idle exit: whether to start again at once). */
  hasWork?: () => Promise<boolean>;
  /** REDELIVER_INTERVAL: while no worker process runs, one is started this often for the delivery sweep alone. */
  sweepIntervalMs?: number | null;
  /** The grace period an idle exit gives a job that arrived meanwhile (STOP_GRACE). */
  stopGraceMs?: number;
}

export interface WorkerProcess {
  /**
   * starting (not ready yet), running, idle (exited with nothing to do: started again on demand),
   * restarting (after a crash), stopped.
   */
  state(): "starting" | "running" | "idle" | "restarting" | "stopped";
  pid(): number | undefined;
  /** Starts the worker process unless it runs (or, exiting idle, once it has exited). */
  wake(reason: string): void;
  /** Starts it when it is not running and `hasWork` says there is a job (after a delivery was applied, at start). */
  wakeIfWork(reason: string): void;
  /** The worker process's own metrics, or undefined when it does not answer in time. */
  metrics(): Promise<MetricObjectWithValues<MetricValue<string>>[] | undefined>;
  /** Asks it to stop (running turns get `graceMs`, then are handed back) and waits for it to exit. */
  stop(graceMs: number): Promise<void>;
}

/**
 * ROLE=all's workers in a child process (src/wiring/worker-process.ts): the process that answers
 * webhooks then does no review work on its event loop. The child is restarted after a crash (its jobs
 * are handed back by its successor's heartbeat check) and exits when this process goes away.
 *
 * With `idleExitMs` it is started on demand (`wakeIfWork` after each applied delivery and at start,
 * `wake` for the delivery sweep) and stopped when it says it has been idle. A wake while it exits starts
 * a new one after the exit, and after every idle exit the queue is looked at once more: a job queued
 * between the child's last look and its exit is never left unworked.
 */
export function startWorkerProcess(options: WorkerProcessOptions): WorkerProcess {
  return new SupervisedWorkerProcess(options);
}

type WorkerState = ReturnType<WorkerProcess["state"]>;
type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

/** The child, started, restarted, woken and stopped as startWorkerProcess says. */
class SupervisedWorkerProcess implements WorkerProcess {
  private readonly log: Logger;
  private child: ChildProcess | undefined;
  private current: WorkerState;
  private stopping = false;
  /** The child was asked to stop because it was idle; set until it has exited. */
  private exitingIdle = false;
  /** A wake while the child exits idle: start again once it has exited. */
  private wakeAfterExit: { reason: string; sweep: boolean } | undefined;
  /** A start for the delivery sweep alone: tell the child to sweep once it is ready. */
  private sweepWhenReady = false;
  private delay = FIRST_RESTART_MS;
  private restartTimer: NodeJS.Timeout | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  private checkAgain: string | undefined;
  private nextId = 0;
  private readonly waiting = new Map<number, (json: MetricsJson | undefined) => void>();

  constructor(private readonly options: WorkerProcessOptions) {
    this.log = options.log;
    const lazy = options.idleExitMs !== undefined && options.idleExitMs !== null;
    this.current = lazy ? "idle" : "starting";
    if (lazy) this.armSweep(FIRST_SWEEP_MS);
    else this.start();
  }

  state(): WorkerState {
    return this.current;
  }

  pid(): number | undefined {
    return this.child?.pid;
  }

  wake(reason: string): void {
    this.wakeFor(reason, false);
  }

  /** One look at the queue at a time; a call during a look looks again after it (its job may be newer). */
  wakeIfWork(reason: string): void {
    if (this.stopping || !this.options.hasWork) return;
    if (this.child && !this.exitingIdle) return;
    if (this.checking) {
      this.checkAgain = reason;
      return;
    }
    this.checking = this.options
      .hasWork()
      .then(
        (work) => {
          if (work) this.wakeFor(reason, false);
        },
        (error: unknown) => {
          // The queue could not be read: start it anyway, it finds out for itself (and exits idle if there is nothing).
          this.log.warn({ err: error }, "could not look at the queue; starting the worker process");
          this.wakeFor(reason, false);
        },
      )
      .finally(() => {
        this.checking = undefined;
        const again = this.checkAgain;
        this.checkAgain = undefined;
        if (again) this.wakeIfWork(again);
      });
  }

  metrics(): Promise<MetricsJson | undefined> {
    if (!this.child?.connected) return Promise.resolve(undefined);
    const id = ++this.nextId;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve(undefined);
      }, METRICS_TIMEOUT_MS);
      this.waiting.set(id, (json) => {
        clearTimeout(timer);
        resolve(json);
      });
      this.send({ type: "metrics", id });
    });
  }

  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    clearTimeout(this.sweepTimer);
    await this.checking;
    const worker = this.child;
    if (!worker || worker.exitCode !== null || worker.signalCode !== null) {
      this.current = "stopped";
      return;
    }
    const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    this.send({ type: "stop", graceMs });
    // It stops its turns after the grace period itself; past that (and its own clean-up), it is killed.
    const deadline = setTimeout(() => worker.kill("SIGKILL"), graceMs + 30_000);
    await exited;
    clearTimeout(deadline);
    this.current = "stopped";
  }

  private send(message: ToWorker): void {
    if (this.child?.connected) this.child.send(message);
  }

  /** While no child runs: the delivery sweep's next start. */
  private armSweep(delayMs: number): void {
    clearTimeout(this.sweepTimer);
    if (!this.options.sweepIntervalMs || this.stopping) return;
    this.sweepTimer = setTimeout(() => this.wakeFor("the delivery sweep is due", true), delayMs);
    this.sweepTimer.unref();
  }

  private start(reason?: string, sweep = false): void {
    clearTimeout(this.sweepTimer);
    if (reason) this.log.info({ reason }, "worker process starting on demand");
    const startedAt = Date.now();
    this.current = "starting";
    this.sweepWhenReady = sweep;
    const env = { ...process.env };
    if (this.options.embeddedSocket) env[EMBEDDED_SOCKET_ENV] = this.options.embeddedSocket;
    const worker = fork(ENTRY, [], {
      env,
      execArgv: workerExecArgv(process.execArgv),
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      serialization: "advanced",
    });
    this.child = worker;
    // Not at background priority: it holds the embedded database's one session for its transactions, and
    // the intake's statements would wait behind a worker the scheduler keeps waiting (measured: commit lag
    // p99 553 ms niced, 4 ms not).
    worker.on("message", (message: FromWorker) => this.heard(worker, message));
    worker.once("exit", (code, signal) => this.exited(worker, startedAt, code, signal));
  }

  private heard(worker: ChildProcess, message: FromWorker): void {
    if (message.type === "ready") {
      this.current = "running";
      this.log.info({ pid: worker.pid }, "worker process running");
      if (this.sweepWhenReady) this.send({ type: "sweep" });
      this.sweepWhenReady = false;
    } else if (message.type === "metrics") {
      this.waiting.get(message.id)?.(message.json);
      this.waiting.delete(message.id);
    } else if (message.type === "idle" && this.child === worker && !this.stopping && !this.exitingIdle) {
      this.exitingIdle = true;
      this.log.info(
        { workerPid: worker.pid, reason: message.reason, idleMs: message.idleMs },
        "worker process exiting: idle",
      );
      this.send({ type: "stop", graceMs: this.options.stopGraceMs ?? 30_000 });
    }
  }

  private exited(worker: ChildProcess, startedAt: number, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.child === worker) this.child = undefined;
    for (const [id, answer] of this.waiting) {
      answer(undefined);
      this.waiting.delete(id);
    }
    if (this.stopping) {
      this.current = "stopped";
      return;
    }
    if (this.exitingIdle) {
      this.exitingIdle = false;
      this.current = "idle";
      this.log.info({ code, signal }, "worker process exited: idle; it starts again when a job is queued");
      const again = this.wakeAfterExit;
      this.wakeAfterExit = undefined;
      if (again) this.start(again.reason, again.sweep);
      else {
        this.armSweep(this.options.sweepIntervalMs ?? 0);
        this.wakeIfWork("a job was queued while it exited");
      }
      return;
    }
    if (Date.now() - startedAt > STEADY_MS) this.delay = FIRST_RESTART_MS;
    this.current = "restarting";
    this.log.error({ code, signal, restartInMs: this.delay }, "worker process exited; restarting it");
    this.restartTimer = setTimeout(() => this.start(), this.delay);
    this.delay = Math.min(this.delay * 2, LAST_RESTART_MS);
  }

  private wakeFor(reason: string, sweep: boolean): void {
    if (this.stopping) return;
    if (this.exitingIdle) {
      // The sweep-only flag holds only while every wake meanwhile was the sweep's.
      this.wakeAfterExit = {
        reason: this.wakeAfterExit?.reason ?? reason,
        sweep: sweep && (this.wakeAfterExit?.sweep ?? true),
      };
      return;
    }
    if (this.child || this.current === "restarting") {
      if (!sweep) this.sweepWhenReady = false; // a job's start: it stays up for the job (and sweeps on its own timer)
      return;
    }
    this.start(reason, sweep);
  }
}
