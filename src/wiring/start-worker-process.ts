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
  const { log } = options;
  const lazy = options.idleExitMs !== undefined && options.idleExitMs !== null;
  let child: ChildProcess | undefined;
  let state: ReturnType<WorkerProcess["state"]> = lazy ? "idle" : "starting";
  let stopping = false;
  /** The child was asked to stop because it was idle; set until it has exited. */
  let exitingIdle = false;
  /** A wake while the child exits idle: start again once it has exited. */
  let wakeAfterExit: { reason: string; sweep: boolean } | undefined;
  /** A start for the delivery sweep alone: tell the child to sweep once it is ready. */
  let sweepWhenReady = false;
  let delay = FIRST_RESTART_MS;
  let restartTimer: NodeJS.Timeout | undefined;
  let sweepTimer: NodeJS.Timeout | undefined;
  let checking: Promise<void> | undefined;
  let checkAgain: string | undefined;
  let nextId = 0;
  const waiting = new Map<number, (json: MetricObjectWithValues<MetricValue<string>>[] | undefined) => void>();

  const send = (message: ToWorker) => {
    if (child?.connected) child.send(message);
  };

  /** While no child runs: the delivery sweep's next start. */
  const armSweep = (delayMs: number) => {
    clearTimeout(sweepTimer);
    if (!options.sweepIntervalMs || stopping) return;
    sweepTimer = setTimeout(() => wakeFor("the delivery sweep is due", true), delayMs);
    sweepTimer.unref();
  };

  const start = (reason?: string, sweep = false) => {
    clearTimeout(sweepTimer);
    if (reason) log.info({ reason }, "worker process starting on demand");
    const startedAt = Date.now();
    state = "starting";
    sweepWhenReady = sweep;
    const env = { ...process.env };
    if (options.embeddedSocket) env[EMBEDDED_SOCKET_ENV] = options.embeddedSocket;
    const worker = fork(ENTRY, [], {
      env,
      execArgv: workerExecArgv(process.execArgv),
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      serialization: "advanced",
    });
    child = worker;
    // Not at background priority: it holds the embedded database's one session for its transactions, and
    // the intake's statements would wait behind a worker the scheduler keeps waiting (measured: commit lag
    // p99 553 ms niced, 4 ms not).
    worker.on("message", (message: FromWorker) => {
      if (message.type === "ready") {
        state = "running";
        log.info({ pid: worker.pid }, "worker process running");
        if (sweepWhenReady) send({ type: "sweep" });
        sweepWhenReady = false;
      } else if (message.type === "metrics") {
        waiting.get(message.id)?.(message.json);
        waiting.delete(message.id);
      } else if (message.type === "idle" && child === worker && !stopping && !exitingIdle) {
        exitingIdle = true;
        log.info(
          { workerPid: worker.pid, reason: message.reason, idleMs: message.idleMs },
          "worker process exiting: idle",
        );
        send({ type: "stop", graceMs: options.stopGraceMs ?? 30_000 });
      }
    });
    worker.once("exit", (code, signal) => {
      if (child === worker) child = undefined;
      for (const [id, answer] of waiting) {
        answer(undefined);
        waiting.delete(id);
      }
      if (stopping) {
        state = "stopped";
        return;
      }
      if (exitingIdle) {
        exitingIdle = false;
        state = "idle";
        log.info({ code, signal }, "worker process exited: idle; it starts again when a job is queued");
        const again = wakeAfterExit;
        wakeAfterExit = undefined;
        if (again) start(again.reason, again.sweep);
        else {
          armSweep(options.sweepIntervalMs ?? 0);
          wakeIfWork("a job was queued while it exited");
        }
        return;
      }
      if (Date.now() - startedAt > STEADY_MS) delay = FIRST_RESTART_MS;
      state = "restarting";
      log.error({ code, signal, restartInMs: delay }, "worker process exited; restarting it");
      restartTimer = setTimeout(() => start(), delay);
      delay = Math.min(delay * 2, LAST_RESTART_MS);
    });
  };

  const wakeFor = (reason: string, sweep: boolean) => {
    if (stopping) return;
    if (exitingIdle) {
      // The sweep-only flag holds only while every wake meanwhile was the sweep's.
      wakeAfterExit = { reason: wakeAfterExit?.reason ?? reason, sweep: sweep && (wakeAfterExit?.sweep ?? true) };
      return;
    }
    if (child || state === "restarting") {
      if (!sweep) sweepWhenReady = false; // a job's start: it stays up for the job (and sweeps on its own timer)
      return;
    }
    start(reason, sweep);
  };

  /** One look at the queue at a time; a call during a look looks again after it (its job may be newer). */
  function wakeIfWork(reason: string): void {
    if (stopping || !options.hasWork) return;
    if (child && !exitingIdle) return;
    if (checking) {
      checkAgain = reason;
      return;
    }
    checking = options
      .hasWork()
      .then(
        (work) => {
          if (work) wakeFor(reason, false);
        },
        (error: unknown) => {
          // The queue could not be read: start it anyway, it finds out for itself (and exits idle if there is nothing).
          log.warn({ err: error }, "could not look at the queue; starting the worker process");
          wakeFor(reason, false);
        },
      )
      .finally(() => {
        checking = undefined;
        const again = checkAgain;
        checkAgain = undefined;
        if (again) wakeIfWork(again);
      });
  }

  if (lazy) armSweep(FIRST_SWEEP_MS);
  else start();

  return {
    state: () => state,
    pid: () => child?.pid,
    wake: (reason) => wakeFor(reason, false),
    wakeIfWork,
    metrics() {
      if (!child?.connected) return Promise.resolve(undefined);
      const id = ++nextId;
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          resolve(undefined);
        }, METRICS_TIMEOUT_MS);
        waiting.set(id, (json) => {
          clearTimeout(timer);
          resolve(json);
        });
        send({ type: "metrics", id });
      });
    },
    async stop(graceMs) {
      stopping = true;
      clearTimeout(restartTimer);
      clearTimeout(sweepTimer);
      await checking;
      const worker = child;
      if (!worker || worker.exitCode !== null || worker.signalCode !== null) {
        state = "stopped";
        return;
      }
      const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
      send({ type: "stop", graceMs });
      // It stops its turns after the grace period itself; past that (and its own clean-up), it is killed.
      const deadline = setTimeout(() => worker.kill("SIGKILL"), graceMs + 30_000);
      await exited;
      clearTimeout(deadline);
      state = "stopped";
    },
  };
}
