import { describe, expect, it } from "vitest";
import { insertRefusal } from "../../../src/db/refusals.js";
import { workerJobs, workers } from "../../../src/db/schema.js";
import { COMMAND_QUEUE, RUN_QUEUE } from "../../../src/queue/queue-names.js";
import { readOperatorView } from "../../../src/web/queries/read-operator-view.js";
import { seedRuns } from "../../helpers/run-view-seed.js";
import { createTestDatabase, databaseKinds } from "../../helpers/test-database.js";
import { useQueueDatabase } from "../../helpers/use-queue-database.js";

const kinds = await databaseKinds();

/** What pg-boss keeps in a failed job's `output`: a thrown error serialized, its timeout's, or a plain string wrapped. */
const ERROR_OUTPUT = {
  name: "GitHubError",
  message: "creating the review: 403 Resource not accessible by integration",
  stack: "GitHubError: ...\n    at createReview",
};
const TIMEOUT_OUTPUT = { value: { message: "job failed by timeout in active state" } };
const STRING_OUTPUT = { value: "pg-boss shut down while active" };

describe.each(kinds)("readOperatorView on %s", (kind) => {
  const database = useQueueDatabase(kind);
  const sql = (text: string, params: unknown[] = []) => database.handle.executeSql(text, params);

  it("counts each queue's waiting, running and failed jobs; lists failed jobs newest first with their reasons, workers and refusals", async () => {
    const db = database.handle.db;
    const [runId] = await seedRuns(db, [{ repositoryId: 9, fullName: "octo/widgets", prNumber: 12 }]);
    const command = {
      installationId: 1,
      repositoryId: 9,
      repositoryFullName: "octo/widgets",
      cloneUrl: "https://github.com/octo/widgets.git",
      prNumber: 13,
      commentId: 1,
      author: "dev",
      command: { kind: "help" as const },
    };
    const failedRun = await database.queue.enqueue({ runId: runId!, trigger: "synchronize" });
    const unknownRun = await database.queue.enqueue({ runId: 999_999, trigger: "synchronize" });
    await database.queue.enqueue({ runId: 5, trigger: "synchronize" });
    const activeRun = await database.queue.enqueue({ runId: 6, trigger: "synchronize" });
    const failedCommand = await database.queue.enqueueCommand(command);
    await database.queue.enqueueCommand({ ...command, commentId: 2 });
    const fail = (id: string | null, output: unknown, minutesAgo: number) =>
      sql(
        `update pgboss.job set state = 'failed', output = $2::jsonb, completed_on = now() - make_interval(mins => $3) where id = $1`,
        [id, JSON.stringify(output), minutesAgo],
      );
    await fail(failedRun, ERROR_OUTPUT, 5);
    await fail(unknownRun, TIMEOUT_OUTPUT, 1);
    await fail(failedCommand, STRING_OUTPUT, 10);
    await sql(`update pgboss.job set state = 'active', started_on = now() where id = $1`, [activeRun]);
    // one failed job pg-boss has archived already, the oldest
    const archived = await database.queue.enqueueCommand({ ...command, commentId: 3, prNumber: 14 });
    await fail(archived, { name: "Error", message: "archived failure" }, 60);
    await sql(
      `with moved as (delete from pgboss.job where id = $1 returning *)
       insert into pgboss.archive (id, name, priority, data, state, retry_limit, retry_count, retry_delay, retry_backoff, start_after, started_on, singleton_key, singleton_on, expire_in, created_on, completed_on, keep_until, dead_letter, policy, output)
       select id, name, priority, data, state, retry_limit, retry_count, retry_delay, retry_backoff, start_after, started_on, singleton_key, singleton_on, expire_in, created_on, completed_on, keep_until, dead_letter, policy, output from moved`,
      [archived],
    );
    await db.insert(workers).values([
      { id: "w-1", host: "box", pid: 101, pidStarted: "1", role: "worker", startedAt: new Date(Date.UTC(2026, 0, 1)) },
      { id: "w-2", host: "box", pid: 102, pidStarted: "2", role: "all", startedAt: new Date(Date.UTC(2026, 0, 2)) },
    ]);
    await db.insert(workerJobs).values([
      { jobId: "j-1", queue: RUN_QUEUE, workerId: "w-2", runId: 6 },
      { jobId: "j-2", queue: COMMAND_QUEUE, workerId: "w-2" },
    ]);
    await insertRefusal(db, {
      kind: "unauthorized_command",
      repositoryFullName: "octo/widgets",
      prNumber: 12,
      actor: "visitor",
      reason: "fix: needs write access (permission read)",
    });
    await insertRefusal(db, {
      kind: "webhook_invalid",
      repositoryFullName: null,
      prNumber: null,
      actor: null,
      reason: "webhook request refused (400, no delivery id): required headers missing: x-hub-signature-256",
      count: 41,
    });

    const view = await readOperatorView(db);

    expect(view.queues.filter((q) => q.name === RUN_QUEUE || q.name === COMMAND_QUEUE)).toEqual([
      { name: COMMAND_QUEUE, queued: 1, active: 0, failed: 1 },
      { name: RUN_QUEUE, queued: 1, active: 1, failed: 2 },
    ]);
    expect(view.failedJobs.map((j) => [j.id, j.queue, j.repositoryFullName, j.prNumber, j.reason])).toEqual([
      [unknownRun, RUN_QUEUE, null, null, "job failed by timeout in active state"],
      [failedRun, RUN_QUEUE, "octo/widgets", 12, "creating the review: 403 Resource not accessible by integration"],
      [failedCommand, COMMAND_QUEUE, "octo/widgets", 13, "pg-boss shut down while active"],
      [archived, COMMAND_QUEUE, "octo/widgets", 14, "archived failure"],
    ]);
    expect(view.failedJobs[0]!.failedAt).toBeInstanceOf(Date);
    expect(view.failedJobs[0]!.failedAt!.getTime()).toBeGreaterThan(view.failedJobs[1]!.failedAt!.getTime());
    expect(view.workers.map((w) => [w.id, w.host, w.pid, w.role, w.jobs])).toEqual([
      ["w-1", "box", 101, "worker", 0],
      ["w-2", "box", 102, "all", 2],
    ]);
    expect(view.refusals.map((r) => [r.kind, r.repositoryFullName, r.prNumber, r.actor, r.reason, r.count])).toEqual([
      [
        "webhook_invalid",
        null,
        null,
        null,
        "webhook request refused (400, no delivery id): required headers missing: x-hub-signature-256",
        41,
      ],
      ["unauthorized_command", "octo/widgets", 12, "visitor", "fix: needs write access (permission read)", 1],
    ]);
  });

  it("without the queue's schema (nothing started a queue yet): no queues, no failed jobs", async () => {
    const fresh = await createTestDatabase(kind);
    try {
      await insertRefusal(fresh.handle.db, {
        kind: "review_refused",
        repositoryFullName: null,
        prNumber: null,
        actor: null,
        reason: "GitHub refused the review",
      });
      const view = await readOperatorView(fresh.handle.db);
      expect(view).toMatchObject({ queues: [], failedJobs: [], workers: [] });
      expect(view.refusals.map((r) => r.reason)).toEqual(["GitHub refused the review"]);
    } finally {
      await fresh.dispose();
    }
  });
});
