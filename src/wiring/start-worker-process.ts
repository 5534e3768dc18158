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

export interface WorkerProcess {
  /** starting (not ready yet), running, restarting (after a crash), stopped. */
  state(): "starting" | "running" | "restarting" | "stopped";
  pid(): number | undefined;
  /** The worker process's own metrics, or undefined when it does not answer in time. */
  metrics(): Promise<MetricObjectWithValues<MetricValue<string>>[] | undefined>;
  /** Asks it to stop (running turns get `graceMs`, then are handed back) and waits for it to exit. */
  stop(graceMs: number): Promise<void>;
}

/**
 * ROLE=all's workers in a child process (src/wiring/worker-process.ts): the process that answers
 * webhooks then does no review work on its event loop. The child is restarted after a crash (its jobs
 * are handed back by its successor's heartbeat check) and exits when this process goes away.
 */
export function startWorkerProcess(options: { log: Logger; embeddedSocket?: string }): WorkerProcess {
  const { log } = options;
  let child: ChildProcess | undefined;
  let state: ReturnType<WorkerProcess["state"]> = "starting";
  let stopping = false;
  let delay = FIRST_RESTART_MS;
  let restartTimer: NodeJS.Timeout | undefined;
  let nextId = 0;
  const waiting = new Map<number, (json: MetricObjectWithValues<MetricValue<string>>[] | undefined) => void>();

  const start = () => {
    const startedAt = Date.now();
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
      } else if (message.type === "metrics") {
        waiting.get(message.id)?.(message.json);
        waiting.delete(message.id);
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
      if (Date.now() - startedAt > STEADY_MS) delay = FIRST_RESTART_MS;
      state = "restarting";
      log.error({ code, signal, restartInMs: delay }, "worker process exited; restarting it");
      restartTimer = setTimeout(start, delay);
      delay = Math.min(delay * 2, LAST_RESTART_MS);
    });
  };
  start();

  const send = (message: ToWorker) => {
    if (child?.connected) child.send(message);
  };
  return {
    state: () => state,
    pid: () => child?.pid,
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
