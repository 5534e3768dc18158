/**
 * A separate process that works the run queue, for test/queue/run-queue.test.ts. Configured by env:
 *   QUEUE_DATABASE_URL  postgres:// URL of the shared database (required)
 *   QUEUE_MODE          "record": sleep QUEUE_SLEEP_MS (±50%) per job and append `{ runId, pid, start, end, retry }`
 *                       to QUEUE_OUT when done; "hang": append `{ event: "started", ... }` and never finish
 *   QUEUE_OUT           JSON-lines file this process appends to (required)
 *   QUEUE_CONCURRENCY, QUEUE_EXPIRE_SECONDS, QUEUE_MAINTENANCE_SECONDS, QUEUE_RETRY_DELAY_SECONDS,
 *   QUEUE_POLLING_SECONDS, QUEUE_SLEEP_MS
 * Prints "ready" on stdout once its workers are polling.
 */
import { appendFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { openDatabase } from "../../src/db/open-database.js";
import { createLogger } from "../../src/logging/create-logger.js";
import { RunQueue } from "../../src/queue/run-queue.js";

function env(name: string, fallback?: string): string {
  const value = process.env[name] ?? fallback;
  if (value === undefined) throw new Error(`${name} is required`);
  return value;
}

const url = env("QUEUE_DATABASE_URL");
const mode = env("QUEUE_MODE", "record");
const out = env("QUEUE_OUT");
const sleepMs = Number(env("QUEUE_SLEEP_MS", "75"));

const log = createLogger({ level: "warn", destination: process.stderr });
const database = await openDatabase({ databaseUrl: url, maxConnections: 1 });
const queue = await RunQueue.start({
  database,
  log,
  expireInSeconds: Number(env("QUEUE_EXPIRE_SECONDS", "30")),
  maintenanceIntervalSeconds: Number(env("QUEUE_MAINTENANCE_SECONDS", "30")),
  retryDelaySeconds: Number(env("QUEUE_RETRY_DELAY_SECONDS", "1")),
  pollingIntervalSeconds: Number(env("QUEUE_POLLING_SECONDS", "0.5")),
});

await queue.work(Number(env("QUEUE_CONCURRENCY", "1")), async (job, _signal, attempt) => {
  const start = Date.now();
  if (mode === "hang") {
    appendFileSync(
      out,
      `${JSON.stringify({ event: "started", runId: job.runId, pid: process.pid, at: start, retry: attempt.retry })}\n`,
    );
    await new Promise<never>(() => {}); // a stuck turn: never settles, ignores the abort signal
  }
  await sleep(sleepMs * (0.5 + Math.random()));
  appendFileSync(
    out,
    `${JSON.stringify({ runId: job.runId, pid: process.pid, start, end: Date.now(), retry: attempt.retry })}\n`,
  );
});

const stop = async () => {
  await queue.stop();
  await database.close();
  process.exit(0);
};
process.once("SIGTERM", () => void stop());

process.stdout.write("ready\n");
