import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../src/db/database.js";
import { migrateDatabase } from "../../src/db/migrate-database.js";
import { openDatabase } from "../../src/db/open-database.js";
import { startTurn } from "../../src/db/turns.js";
import type { JobAttempt } from "../../src/domain/job-attempt.js";
import { RunQueue, type RunQueueOptions } from "../../src/queue/run-queue.js";
import type { RunJob } from "../../src/domain/run-job.js";
import { captureLogger } from "../helpers/capture-logger.js";
import { createRun } from "../helpers/run-fixture.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import {
  createPostgresDatabase,
  createTestDatabase,
  databaseKinds,
  type TestDatabase,
} from "../helpers/test-database.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const WORKER = fileURLToPath(new URL("./queue-worker.ts", import.meta.url));
const kinds = await databaseKinds();

/** Polls `check` until it holds; fails (instead of hanging) after `timeoutMs`. */
async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
  everyMs = 20,
): Promise<void> {
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

  it("stop lets a running job finish within the grace period: it completes, and nothing is retried", async () => {
    const q = await start();
    let finished = false;
    await q.work(1, async () => {
      await sleep(600);
      finished = true;
    });
    const id = await q.enqueue(job(5, "opened"));
    await waitFor("the job to start", () => q.running() === 1);
    await q.stop(10_000);
    queue = undefined;
    expect(finished).toBe(true);
    expect((await database.handle.executeSql(`select state from pgboss.job where id = $1`, [id])).rows).toEqual([
      { state: "completed" },
    ]);
  });

  it("stop past the grace period aborts the running job and hands it back: another worker runs it at once", async () => {
    const q = await start({ retryDelaySeconds: 60 }); // a failure would wait a minute; a hand-back does not
    const aborted: unknown[] = [];
    await q.work(1, async (_job, signal) => {
      await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
      aborted.push(signal.reason);
      throw signal.reason;
    });
    const id = await q.enqueue(job(6, "opened"));
    await waitFor("the job to start", () => q.running() === 1);
    await q.stop(300);
    queue = undefined;
    expect(aborted[0]).toMatchObject({ message: "the app stopped before the job ended", interrupted: true });
    expect(
      (
        await database.handle.executeSql(
          `select state, retry_count, start_after <= now() as due from pgboss.job where id = $1`,
          [id],
        )
      ).rows,
    ).toEqual([{ state: "retry", retry_count: 0, due: true }]); // due now, not after the minute's retry delay

    const other = (queue = await start());
    const taken: JobAttempt[] = [];
    await other.work(1, async (_job, _signal, attempt) => void taken.push(attempt));
    await waitFor("another worker to run it", () => taken.length === 1, 30_000);
    expect(taken[0]).toEqual({ retry: 1, last: false });
  });

  it("aborts the handler's signal before the job expires, so a stuck agent call is cancelled", async () => {
    const expireInSeconds = 3;
    const q = await start({ expireInSeconds, maintenanceIntervalSeconds: 1 });
    const seen: { start: number; abortedAt: number; reason: unknown; stateAtAbort: unknown; attempt: JobAttempt }[] =
      [];
    await q.work(1, async (_job, signal, attempt) => {
      const start = Date.now();
      // A stuck agent call that only ends when cancelled (bounded, so a broken queue fails instead of hanging).
      await new Promise<void>((resolve, reject) => {
        const guard = setTimeout(() => reject(new Error("signal never fired")), 15_000);
        signal.addEventListener("abort", () => (clearTimeout(guard), resolve()), { once: true });
      });
      const abortedAt = Date.now();
      const { rows } = await database.handle.executeSql(
        `select state from pgboss.job where singleton_key = $1 and state = 'active'`,
        ["3"],
      );
      seen.push({ start, abortedAt, reason: signal.reason, stateAtAbort: rows[0]?.state, attempt });
      throw signal.reason;
    });
    await q.enqueue(job(3));
    await waitFor("the handler's signal to fire", () => seen.length === 1, 15_000);
    const [s] = seen;
    const elapsed = s!.abortedAt - s!.start;
    expect(elapsed).toBeGreaterThanOrEqual(900); // not at once: it ran until close to its expiry
    expect(s!.stateAtAbort).toBe("active"); // and pg-boss had not expired it yet: the abort came first
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
    child.once("exit", (code, signal) =>
      reject(new Error(`worker exited (${code ?? signal}) before ready:\n${output}`)),
    );
  });
  ready.catch(() => {});
  return { process: child, output: () => output, ready };
}

async function ready(children: Child[], timeoutMs = 60_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(`workers not ready within ${timeoutMs} ms:\n${children.map((c) => c.output()).join("\n---\n")}`),
        ),
      timeoutMs,
    );
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
    await migrateDatabase(handle);
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

  it("replicas starting together on a fresh database all start their queues (no deadlock creating pg-boss's schema and queues)", async () => {
    const created = await createPostgresDatabase();
    drop = created.drop;
    const handles = await Promise.all(
      Array.from({ length: 4 }, () => openDatabase({ databaseUrl: created.url, maxConnections: 2 })),
    );
    try {
      await migrateDatabase(handles[0]!);
      const queues = await Promise.all(
        handles.map((database) => RunQueue.start({ database, log: captureLogger().log, expireInSeconds: 30 })),
      );
      expect(await queues[3]!.enqueue(job(1, "opened"))).toEqual(expect.any(String));
      await Promise.all(queues.map((q) => q.stop(0)));
    } finally {
      await Promise.all(handles.map((h) => h.close()));
    }
  });

  it("several processes: no run is worked twice at once, every run is handled, and both processes work", async () => {
    const { url, queue: q } = await open();
    const dir = tempDir("nm-queue-");
    const outs = [join(dir, "a.jsonl"), join(dir, "b.jsonl")];
    for (const out of outs) {
      children.push(
        spawnWorker({
          QUEUE_DATABASE_URL: url,
          QUEUE_MODE: "record",
          QUEUE_OUT: out,
          QUEUE_CONCURRENCY: "2",
          QUEUE_SLEEP_MS: "75",
        }),
      );
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
        if (next.start < prev.end)
          throw new Error(`run ${runId}: turns overlap: ${JSON.stringify(prev)} and ${JSON.stringify(next)}`);
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

  /** A child that starts the run's job and never finishes it; resolves once it has started. */
  const doomedWorker = async (url: string, expireInSeconds: number) => {
    const out = join(tempDir("nm-queue-"), "hang.jsonl");
    const doomed = spawnWorker({
      QUEUE_DATABASE_URL: url,
      QUEUE_MODE: "hang",
      QUEUE_OUT: out,
      QUEUE_CONCURRENCY: "1",
      QUEUE_EXPIRE_SECONDS: String(expireInSeconds),
      QUEUE_POLLING_SECONDS: "0.5",
    });
    children.push(doomed);
    await ready([doomed]);
    return {
      doomed,
      started: async () => {
        type Started = { event: string; runId: number; pid: number; at: number; retry: number };
        await waitFor("the child to start the job", () => readLines<Started>(out).length === 1, 60_000);
        return readLines<Started>(out)[0]!;
      },
    };
  };

  // These tests wait on conditions (a row, a handler call), never on how fast the machine is: each wait's
  // bound is only there to fail instead of hang, far above what the mechanism needs and below the lease.
  const CROSS_PROCESS_MS = 180_000;

  /** The doomed child's heartbeat row, once it is there. */
  const workerRow = async (pid: number) =>
    (await handle!.executeSql(`select id from workers where pid = $1`, [pid])).rows[0] as { id: string } | undefined;

  it(
    "a worker killed mid-turn while another process works: its job is handed back by the other's heartbeat, long before its lease, and its turn is closed as interrupted",
    async () => {
      const expireInSeconds = 600;
      const { url, queue: q } = await open({ expireInSeconds });
      const runId = await createRun(handle!.db);
      const { doomed, started } = await doomedWorker(url, expireInSeconds);
      const taken: { job: RunJob; attempt: JobAttempt; at: number }[] = [];
      await q.work(1, async (j, _signal, attempt) => void taken.push({ job: j, attempt, at: Date.now() })); // the other process, already working

      const id = await q.enqueue(job(runId, "opened"));
      expect(await started()).toMatchObject({ event: "started", runId, pid: doomed.process.pid, retry: 0 });
      const turnId = await startTurn(handle!.db, {
        runId,
        role: "reviewer",
        trigger: "opened",
        headSha: "a".repeat(40),
        agent: "fake",
      }); // the dead job's turn
      await kill(doomed);
      const killedAt = Date.now();

      await waitFor("the other process to take the job over", () => taken.length === 1, 120_000, 50);
      const takeover = taken[0]!.at - killedAt;
      expect(taken[0]!.job.runId).toBe(runId);
      expect(taken[0]!.attempt).toEqual({ retry: 1, last: false }); // handed back, not expired: an expiry is a failed attempt after 600 s
      await waitFor("the queue to drain", async () => (await q.pending()) === 0, 60_000, 100);
      expect(
        await handle!.executeSql(`select id, state, retry_count from pgboss.job where singleton_key = $1`, [
          String(runId),
        ]),
      ).toMatchObject({ rows: [{ id, state: "completed", retry_count: 1 }] });
      expect((await handle!.executeSql(`select status, error from turns where id = $1`, [turnId])).rows).toEqual([
        { status: "interrupted", error: "the process running it stopped before it ended" },
      ]);
      expect((await handle!.executeSql(`select count(*)::int as n from workers`)).rows).toEqual([{ n: 1 }]); // only the live one is left
      console.log(`worker death: job handed back and taken ${takeover} ms after SIGKILL (lease ${expireInSeconds} s)`);
    },
    CROSS_PROCESS_MS,
  );

  it(
    "a restarted process hands back the job its previous self was running, at start",
    async () => {
      const { url, queue: q } = await open({ expireInSeconds: 600, heartbeat: { beatMs: 3_600_000 } }); // the restarted process: not working yet, and no heartbeat tick during the test
      const { doomed, started } = await doomedWorker(url, 600);
      await q.enqueue(job(78, "opened"));
      await started();
      const doomedId = (await workerRow(doomed.process.pid!))!.id;
      await kill(doomed);
      const taken: number[] = [];
      await q.work(1, async () => void taken.push(Date.now())); // its first worker looks for stopped ones before polling
      // at start, not at a heartbeat (none comes for an hour): the pid on this host is gone, so its row and jobs are
      expect((await handle!.executeSql(`select 1 from workers where id = $1`, [doomedId])).rows).toEqual([]);
      expect((await handle!.executeSql(`select 1 from worker_jobs where worker_id = $1`, [doomedId])).rows).toEqual([]);
      await waitFor("the job to run again", () => taken.length === 1, 60_000, 50);
    },
    CROSS_PROCESS_MS,
  );

  it(
    "a worker that stops beating (frozen, or on a host that vanished) has its job handed back once its heartbeat is older than the stale time, not before",
    async () => {
      const staleMs = 3_600_000; // an hour: no wall clock reaches it; the test ages the frozen worker's beat instead
      const { url, queue: q } = await open({ expireInSeconds: 600, heartbeat: { beatMs: 200, staleMs } });
      const { doomed, started } = await doomedWorker(url, 600);
      const taken: number[] = [];
      await q.work(1, async () => void taken.push(Date.now()));
      const live = (await handle!.executeSql(`select id from workers where pid = $1`, [process.pid])).rows[0] as {
        id: string;
      };
      await q.enqueue(job(77, "opened"));
      await started();
      const frozen = (await workerRow(doomed.process.pid!))!.id;
      doomed.process.kill("SIGSTOP"); // alive on this host, but silent

      // The live worker looks for stopped workers on every beat; let it beat a few times while the frozen one is
      // silent but not yet stale: nothing is handed back.
      const beatOf = async () =>
        String(
          (
            (await handle!.executeSql(`select beat_at from workers where id = $1`, [live.id])).rows[0] as {
              beat_at: unknown;
            }
          ).beat_at,
        );
      for (let beats = 0, last = await beatOf(); beats < 3;) {
        await sleep(50);
        const now = await beatOf();
        if (now !== last) [beats, last] = [beats + 1, now];
      }
      expect(taken).toEqual([]);
      expect((await handle!.executeSql(`select 1 from workers where id = $1`, [frozen])).rows).toHaveLength(1);

      // Its last beat now older than the stale time: the next beat of the live worker hands its job back.
      await handle!.executeSql(`update workers set beat_at = now() - interval '2 hours' where id = $1`, [frozen]);
      await waitFor("the job to be handed back", () => taken.length === 1, 60_000, 50);
      expect((await handle!.executeSql(`select 1 from workers where id = $1`, [frozen])).rows).toEqual([]);
      doomed.process.kill("SIGKILL");
    },
    CROSS_PROCESS_MS,
  );
});
