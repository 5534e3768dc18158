import { beforeEach, describe, expect, it } from "vitest";
import { Metrics } from "../../src/metrics/metrics.js";
import { queueStats, type QueueStat } from "../../src/metrics/queue-stats.js";
import { COMMAND_QUEUE, RUN_QUEUE } from "../../src/queue/queue-names.js";
import { captureLogger } from "../helpers/capture-logger.js";
import { databaseKinds } from "../helpers/test-database.js";
import { useQueueDatabase } from "../helpers/use-queue-database.js";
import { sample } from "./sample.js";

const kinds = await databaseKinds();

describe.each(kinds)("queueStats on %s", (kind) => {
  const database = useQueueDatabase(kind);
  const sql = (text: string) => database.handle.executeSql(text);
  const stats = () => queueStats((text, values) => database.handle.executeSql(text, values));
  const find = (all: QueueStat[], queue: string, state: string) =>
    all.find((s) => s.queue === queue && s.state === state);

  beforeEach(async () => {
    await sql("truncate pgboss.job");
  });

  it("lists every queue in every state, 0 included, when nothing is queued", async () => {
    const all = await stats();
    const states = ["created", "retry", "active", "completed", "cancelled", "failed"];
    expect(
      all
        .filter((s) => s.queue === RUN_QUEUE)
        .map((s) => [s.state, s.count, s.oldestAgeSeconds])
        .sort(),
    ).toEqual(states.map((s) => [s, 0, null]).sort());
    expect(all.filter((s) => s.queue === COMMAND_QUEUE)).toHaveLength(states.length);
  });

  it("counts jobs per queue and state, and ages the oldest waiting by creation and the oldest running by start", async () => {
    for (const runId of [1, 2, 3]) await database.queue.enqueue({ runId, trigger: "synchronize" });
    await database.queue.enqueueCommand({
      installationId: 1,
      repositoryId: 1,
      repositoryFullName: "o/r",
      cloneUrl: "https://github.com/o/r.git",
      prNumber: 1,
      commentId: 1,
      author: "dev",
      command: { kind: "help" },
    });
    await sql(
      `update pgboss.job set created_on = now() - interval '90 seconds' where name = '${RUN_QUEUE}' and data->>'runId' = '1'`,
    );
    await sql(
      `update pgboss.job set state = 'active', started_on = now() - interval '30 seconds', created_on = now() - interval '600 seconds' where name = '${RUN_QUEUE}' and data->>'runId' = '3'`,
    );

    const all = await stats();

    expect(find(all, RUN_QUEUE, "created")).toEqual({
      queue: RUN_QUEUE,
      state: "created",
      count: 2,
      oldestAgeSeconds: expect.closeTo(90, -1),
    });
    expect(find(all, RUN_QUEUE, "active")).toEqual({
      queue: RUN_QUEUE,
      state: "active",
      count: 1,
      oldestAgeSeconds: expect.closeTo(30, -1),
    });
    expect(find(all, RUN_QUEUE, "retry")).toEqual({
      queue: RUN_QUEUE,
      state: "retry",
      count: 0,
      oldestAgeSeconds: null,
    });
    expect(find(all, COMMAND_QUEUE, "created")).toMatchObject({ count: 1, oldestAgeSeconds: expect.any(Number) });
    expect(find(all, COMMAND_QUEUE, "created")!.oldestAgeSeconds).toBeLessThan(30);
  });

  it("feeds queue_jobs and queue_oldest_job_age_seconds at every scrape", async () => {
    await database.queue.enqueue({ runId: 11, trigger: "synchronize" });
    await sql(
      `update pgboss.job set created_on = now() - interval '300 seconds', state = 'retry' where name = '${RUN_QUEUE}'`,
    );
    await database.queue.enqueue({ runId: 12, trigger: "synchronize" });
    const metrics = new Metrics({ queueStats: stats, processMetrics: false });

    const text = await metrics.text();

    expect(sample(text, `queue_jobs{queue="${RUN_QUEUE}",state="created"}`)).toBe(1);
    expect(sample(text, `queue_jobs{queue="${RUN_QUEUE}",state="retry"}`)).toBe(1);
    expect(sample(text, `queue_jobs{queue="${RUN_QUEUE}",state="active"}`)).toBe(0);
    expect(sample(text, `queue_oldest_job_age_seconds{queue="${RUN_QUEUE}"}`)).toBeGreaterThanOrEqual(300); // the retrying job waits longest
    expect(sample(text, `queue_oldest_job_age_seconds{queue="${RUN_QUEUE}"}`)).toBeLessThan(330);
    expect(sample(text, `queue_oldest_job_age_seconds{queue="${COMMAND_QUEUE}"}`)).toBe(0);

    // the next scrape reads again: the jobs are gone, the counts say so
    await sql("truncate pgboss.job");
    const after = await metrics.text();
    expect(sample(after, `queue_jobs{queue="${RUN_QUEUE}",state="created"}`)).toBe(0);
    expect(sample(after, `queue_oldest_job_age_seconds{queue="${RUN_QUEUE}"}`)).toBe(0);
  });
});

describe("queue gauges when the queue cannot be read", () => {
  it("answer the scrape without them and say why in the log", async () => {
    const { log, lines } = captureLogger();
    let calls = 0;
    const metrics = new Metrics({
      log,
      processMetrics: false,
      intakeBacklog: () => 2,
      queueStats: async () =>
        calls++ === 0
          ? [{ queue: "q", state: "created", count: 4, oldestAgeSeconds: 12 }]
          : Promise.reject(new Error("connection refused")),
    });
    const first = await metrics.text();
    expect(calls).toBe(1); // one query per scrape, shared by both queue gauges
    expect(sample(first, 'queue_jobs{queue="q",state="created"}')).toBe(4);
    expect(sample(first, 'queue_oldest_job_age_seconds{queue="q"}')).toBe(12);

    const second = await metrics.text();
    expect(second).not.toContain('queue_jobs{queue="q"'); // no stale count from the scrape before
    expect(sample(second, "intake_backlog")).toBe(2);
    expect(lines()).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: "queue metrics could not be read",
        err: expect.objectContaining({ message: "connection refused" }),
      }),
    );
  });
});
