import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../src/db/database.js";
import { openDatabase } from "../../src/db/open-database.js";
import { RunQueue, type JobAttempt, type RunQueueOptions } from "../../src/queue/run-queue.js";
import type { RunJob } from "../../src/queue/run-job.js";
import { captureLogger } from "../helpers/capture-logger.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { createPostgresDatabase, createTestDatabase, databaseKinds, type TestDatabase } from "../helpers/test-database.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const WORKER = fileURLToPath(new URL("./queue-worker.ts", import.meta.url));
const kinds = await databaseKinds();

/** Polls `check` until it holds; fails (instead of hanging) after `timeoutMs`. */
async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000, everyMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

interface Gate {
  promise: Promise<void>;
  open: () => void;
}

function gate(): Gate {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

interface Call {
  job: RunJob;
  attempt: JobAttempt;
  gate: Gate;
  start: number;
  end?: number;
}

/** A handler that records each call and blocks until its gate is opened; also counts overlapping turns per run. */
function blockingHandler() {
  const calls: Call[] = [];
  const activeByRun = new Map<number, number>();
  let maxOverlap = 0;
  const handler = async (job: RunJob, _signal: AbortSignal, attempt: JobAttempt) => {
    const call: Call = { job, attempt, gate: gate(), start: Date.now() };
    calls.push(call);
    const active = (activeByRun.get(job.runId) ?? 0) + 1;
    activeByRun.set(job.runId, active);
    maxOverlap = Math.max(maxOverlap, active);
    try {
      await call.gate.promise;
    } finally {
      activeByRun.set(job.runId, (activeByRun.get(job.runId) ?? 1) - 1);
      call.end = Date.now();
    }
  };
  return {
    calls,
    handler,
    callsFor: (runId: number) => calls.filter((c) => c.job.runId === runId),
    maxOverlap: () => maxOverlap,
    releaseAll: () => calls.forEach((c) => c.gate.open()),
  };
}

const job = (runId: number, trigger = "synchronize"): RunJob => ({ runId, trigger });

describe.each(kinds)("RunQueue on %s", (kind) => {
  let database: TestDatabase;
  let queue: RunQueue | undefined;
  let release: (() => void) | undefined;

  const start = async (overrides: Partial<RunQueueOptions> = {}) => {
    queue = await RunQueue.start({
      database: database.handle,
      log: captureLogger().log,
      expireInSeconds: 60,
      pollingIntervalSeconds: 0.5,
      retryDelaySeconds: 1,
      ...overrides,
    });
    return queue;
  };

  // One database per kind (a migrated PGlite takes seconds to make); each test starts its own queue on it
  // and leaves no jobs behind.
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });

  afterAll(async () => {
    await database?.dispose();
  });

  afterEach(async () => {
    release?.();
    release = undefined;
    await queue?.stop();
    queue = undefined;
    await database.handle.executeSql("truncate pgboss.job, pgboss.archive");
  });

  it("keeps one waiting job per run: a second enqueue while one waits returns null; other runs are unaffected", async () => {
    const q = await start();
    const first = await q.enqueue(job(1, "opened"));
    expect(first).toEqual(expect.any(String));
    expect(await q.enqueue(job(1))).toBeNull();
    expect(await q.enqueue(job(1, "command"))).toBeNull();
    const other = await q.enqueue(job(2, "opened"));
    expect(other).toEqual(expect.any(String));
    expect(other).not.toBe(first);
    expect(await q.enqueue(job(2))).toBeNull();
    expect(await q.pending()).toBe(2);
  });

  it("while a run's job is active, exactly one more can wait and a third enqueue returns null", async () => {
    const q = await start();
    const h = blockingHandler();
    release = h.releaseAll;
    await q.work(2, h.handler);

    const active = await q.enqueue(job(1, "opened"));
    expect(active).toEqual(expect.any(String));
    await waitFor("the first job to become active", () => h.calls.length === 1);

    const waiting = await q.enqueue(job(1));
    expect(waiting).toEqual(expect.any(String));
    expect(waiting).not.toBe(active);
    expect(await q.enqueue(job(1))).toBeNull();
    expect(await q.pending()).toBe(2); // one active + one waiting

    // With a free worker, the waiting job still does not start while its run is active.
    await sleep(1200);
    expect(h.calls).toHaveLength(1);

    h.calls[0]!.gate.open();
    await waitFor("the waiting job to start after the first finished", () => h.calls.length === 2);
    expect(h.calls[1]!.start).toBeGreaterThanOrEqual(h.calls[0]!.end!);
    h.calls[1]!.gate.open();
    await waitFor("the queue to drain", async () => (await q.pending()) === 0);
    expect(h.calls.map((c) => c.job.runId)).toEqual([1, 1]);
    expect(h.maxOverlap()).toBe(1);
  });

  it("jobs of different runs are independent: a busy run (active + waiting) does not hold up another run", async () => {
    const q = await start();
    const h = blockingHandler();
    release = h.releaseAll;
    await q.work(2, h.handler);

    await q.enqueue(job(1, "opened"));
    await waitFor("run 1 to become active", () => h.calls.length === 1);
    expect(await q.enqueue(job(1))).toEqual(expect.any(String)); // run 1 now also has a waiting job
    expect(await q.enqueue(job(2, "opened"))).toEqual(expect.any(String));

    await waitFor("run 2 to start while run 1 is still active", () => h.callsFor(2).length === 1, 5_000);
    expect(h.callsFor(1)).toHaveLength(1);
    expect(h.callsFor(1)[0]!.end).toBeUndefined();

    h.releaseAll();
    await waitFor("run 1's waiting job to run", () => h.callsFor(1).length === 2);
    h.releaseAll();
    await waitFor("the queue to drain", async () => (await q.pending()) === 0);
    expect(h.maxOverlap()).toBe(1);
  });

  it("collapses a burst: 10 pushes while a run's job is active make exactly one more turn", async () => {
    const q = await start();
    const h = blockingHandler();
    release = h.releaseAll;
    await q.work(2, h.handler);

    await q.enqueue(job(7, "opened"));
    await waitFor("the first turn to start", () => h.calls.length === 1);
    const ids: (string | null)[] = [];
    for (let i = 0; i < 10; i++) ids.push(await q.enqueue(job(7)));
    expect(ids.filter((id) => id !== null)).toHaveLength(1);
    expect(ids[0]).toEqual(expect.any(String));

    h.calls[0]!.gate.open();
    await waitFor("the collapsed turn to start", () => h.calls.length === 2);
    h.calls[1]!.gate.open();
    await waitFor("the queue to drain", async () => (await q.pending()) === 0);
    await sleep(1200); // more than two polling intervals: nothing else turns up
    expect(h.callsFor(7)).toHaveLength(2);
    expect(h.calls[1]!.start).toBeGreaterThanOrEqual(h.calls[0]!.end!);
    expect(h.maxOverlap()).toBe(1);
  });

  it("aborts the handler's signal before the job expires, so a stuck agent call is cancelled", async () => {
    const expireInSeconds = 3;
    const q = await start({ expireInSeconds, maintenanceIntervalSeconds: 1 });
    const seen: { start: number; abortedAt: number; reason: unknown; stateAtAbort: unknown; attempt: JobAttempt }[] = [];
    await q.work(1, async (_job, signal, attempt) => {
      const start = Date.now();
      // A stuck agent call that only ends when cancelled (bounded, so a broken queue fails instead of hanging).
      await new Promise<void>((resolve, reject) => {
        const guard = setTimeout(() => reject(new Error("signal never fired")), 15_000);
        signal.addEventListener("abort", () => (clearTimeout(guard), resolve()), { once: true });
      });
      const abortedAt = Date.now();
      const { rows } = await database.handle.executeSql(`select state from pgboss.job where singleton_key = $1 and state = 'active'`, ["3"]);
      seen.push({ start, abortedAt, reason: signal.reason, stateAtAbort: rows[0]?.state, attempt });
      throw signal.reason;
    });
    await q.enqueue(job(3));
    await waitFor("the handler's signal to fire", () => seen.length === 1, 15_000);
    const [s] = seen;
    const elapsed = s!.abortedAt - s!.start;
    expect(elapsed).toBeLessThan(expireInSeconds * 1000);
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(s!.stateAtAbort).toBe("active"); // pg-boss had not expired it yet
    expect((s!.reason as Error).message).toBe("job expired");
    expect(s!.attempt).toEqual({ retry: 0, last: false });
  });
});

interface Child {
  process: ChildProcess;
  output: () => string;
  ready: Promise<void>;
}

function spawnWorker(env: Record<string, string>): Child {
  const child = spawn(process.execPath, ["--import", "tsx", WORKER], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => {
      output += d.toString();
      if (output.includes("ready\n")) resolve();
    });
    child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
    child.once("exit", (code, signal) => reject(new Error(`worker exited (${code ?? signal}) before ready:\n${output}`)));
  });
  ready.catch(() => {});
  return { process: child, output: () => output, ready };
}

async function ready(children: Child[], timeoutMs = 30_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`workers not ready within ${timeoutMs} ms:\n${children.map((c) => c.output()).join("\n---\n")}`)), timeoutMs);
  });
  try {
    await Promise.race([Promise.all(children.map((c) => c.ready)), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function kill(child: Child): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.process.once("exit", () => resolve()));
  child.process.kill("SIGKILL");
  await Promise.race([exited, sleep(5_000)]);
}

function readLines<T>(file: string): T[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
}

describe.runIf(kinds.includes("postgres"))("RunQueue across processes (PostgreSQL)", () => {
  let drop: (() => Promise<void>) | undefined;
  let handle: DatabaseHandle | undefined;
  let queue: RunQueue | undefined;
  const children: Child[] = [];

  const open = async (overrides: Partial<RunQueueOptions> = {}) => {
    const created = await createPostgresDatabase();
    drop = created.drop;
    handle = await openDatabase({ databaseUrl: created.url, maxConnections: 2 });
    queue = await RunQueue.start({
      database: handle,
      log: captureLogger().log,
      expireInSeconds: 30,
      pollingIntervalSeconds: 0.5,
      retryDelaySeconds: 1,
      ...overrides,
    });
    return { url: created.url, queue };
  };

  afterEach(async () => {
    await Promise.all(children.splice(0).map(kill));
    await queue?.stop();
    queue = undefined;
    await handle?.close();
    handle = undefined;
    await drop?.();
    drop = undefined;
  });

  afterAll(() => removeTempDirs());

  it("several processes: no run is worked twice at once, every run is handled, and both processes work", async () => {
    const { url, queue: q } = await open();
    const dir = tempDir("nm-queue-");
    const outs = [join(dir, "a.jsonl"), join(dir, "b.jsonl")];
    for (const out of outs) {
      children.push(spawnWorker({ QUEUE_DATABASE_URL: url, QUEUE_MODE: "record", QUEUE_OUT: out, QUEUE_CONCURRENCY: "2", QUEUE_SLEEP_MS: "75" }));
    }
    await ready(children);

    const started = Date.now();
    const runs = Array.from({ length: 30 }, (_, i) => 100 + i);
    let accepted = 0;
    for (let push = 0; push < 4; push++) {
      for (const runId of runs) {
        if (await q.enqueue(job(runId))) accepted++;
        await sleep(Math.random() * 4);
      }
      await sleep(600); // let some turns finish, so later pushes find runs idle, waiting or active
    }
    await waitFor("the queue to drain", async () => (await q.pending()) === 0, 45_000, 100);
    const drained = Date.now() - started;

    type Record = { runId: number; pid: number; start: number; end: number; retry: number };
    const records = outs.flatMap((out) => readLines<Record>(out));
    const byRun = new Map<number, Record[]>();
    for (const r of records) byRun.set(r.runId, [...(byRun.get(r.runId) ?? []), r]);

    expect([...byRun.keys()].sort((a, b) => a - b)).toEqual(runs);
    for (const [runId, turns] of byRun) {
      turns.sort((a, b) => a.start - b.start);
      for (let i = 1; i < turns.length; i++) {
        const [prev, next] = [turns[i - 1]!, turns[i]!];
        if (next.start < prev.end) throw new Error(`run ${runId}: turns overlap: ${JSON.stringify(prev)} and ${JSON.stringify(next)}`);
      }
    }
    const pids = new Set(records.map((r) => r.pid));
    expect(pids).toEqual(new Set(children.map((c) => c.process.pid)));
    expect(records.length).toBe(accepted); // every accepted job ran exactly once; no retries
    expect(records.every((r) => r.retry === 0)).toBe(true);
    const multiTurn = [...byRun.values()].filter((turns) => turns.length > 1).length;
    expect(multiTurn).toBeGreaterThan(0); // the overlap check above had something to check
    console.log(
      `several processes: ${multiTurn} runs had several turns; ${accepted} of 120 pushes accepted, ${records.length} turns (${[...pids].map((p) => records.filter((r) => r.pid === p).length).join(" + ")}) in ${drained} ms`,
    );
  });

  it("a worker that dies mid-turn: its job expires and another process takes it over as a retry", async () => {
    const settings = { expireInSeconds: 3, maintenanceIntervalSeconds: 1, retryDelaySeconds: 1, pollingIntervalSeconds: 0.5 };
    const { url, queue: q } = await open(settings);
    const dir = tempDir("nm-queue-");
    const out = join(dir, "hang.jsonl");
    const doomed = spawnWorker({
      QUEUE_DATABASE_URL: url,
      QUEUE_MODE: "hang",
      QUEUE_OUT: out,
      QUEUE_CONCURRENCY: "1",
      QUEUE_EXPIRE_SECONDS: String(settings.expireInSeconds),
      QUEUE_MAINTENANCE_SECONDS: String(settings.maintenanceIntervalSeconds),
      QUEUE_RETRY_DELAY_SECONDS: String(settings.retryDelaySeconds),
      QUEUE_POLLING_SECONDS: String(settings.pollingIntervalSeconds),
    });
    children.push(doomed);
    await ready([doomed]);

    const id = await q.enqueue(job(42, "opened"));
    expect(id).toEqual(expect.any(String));
    type Started = { event: string; runId: number; pid: number; at: number; retry: number };
    await waitFor("the child to start the job", () => readLines<Started>(out).length === 1, 15_000);
    const [started] = readLines<Started>(out);
    expect(started).toMatchObject({ event: "started", runId: 42, pid: doomed.process.pid, retry: 0 });
    await kill(doomed);
    const killedAt = Date.now();

    const taken: { job: RunJob; attempt: JobAttempt; at: number }[] = [];
    await q.work(1, async (j, _signal, attempt) => {
      taken.push({ job: j, attempt, at: Date.now() });
    });
    await waitFor("the parent to take the job over", () => taken.length === 1, 30_000, 50);
    const [t] = taken;
    expect(t!.job.runId).toBe(42);
    expect(t!.attempt.retry).toBeGreaterThanOrEqual(1);
    expect(t!.attempt.last).toBe(false);
    const takeover = t!.at - killedAt;
    // Not before the lease ran out: it is the expiry that frees the job, nothing else.
    expect(t!.at - started!.at).toBeGreaterThanOrEqual(settings.expireInSeconds * 1000);
    // expiry + up to two maintenance ticks + retry backoff (1–2 s) + polling, with slack for a loaded machine.
    expect(takeover).toBeLessThan(15_000);
    await waitFor("the queue to drain", async () => (await q.pending()) === 0, 10_000, 100);
    expect(taken).toHaveLength(1);
    const { rows } = await handle!.executeSql(`select id, state, retry_count from pgboss.job where singleton_key = '42'`);
    expect(rows).toEqual([{ id, state: "completed", retry_count: 1 }]);
    console.log(
      `worker death: takeover ${takeover} ms after SIGKILL, ${t!.at - started!.at} ms after the dead turn started (expireInSeconds ${settings.expireInSeconds})`,
    );
  });
});
