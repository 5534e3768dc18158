import type { EmitterWebhookEvent as Context } from "@octokit/webhooks";
import { describe, expect, it } from "vitest";
import { findRun } from "../../src/db/runs.js";
import { COMMAND_QUEUE, RUN_QUEUE } from "../../src/queue/queue-names.js";
import { applyRecord } from "../../src/intake/apply-record.js";
import type { IntakeDeps } from "../../src/intake/intake-deps.js";
import type { Intake } from "../../src/intake/webhook-intake.js";
import type { IntakeRecord } from "../../src/intake/intake-record.js";
import { onIssueComment as handleIssueComment } from "../../src/webhooks/on-issue-comment.js";
import { onPullRequest as handlePullRequest } from "../../src/webhooks/on-pull-request.js";
import { onPullRequestClosed as handlePullRequestClosed } from "../../src/webhooks/on-pull-request-closed.js";
import { databaseKinds } from "../helpers/test-database.js";
import { useIntakeDatabase } from "../helpers/use-queue-database.js";
import { examplePayload, type PrShape, pullRequestPayload } from "../helpers/webhook-payloads.js";

const kinds = await databaseKinds();
const REPO_ID = 4242;
const PR = 7;

type PullRequestContext = Parameters<typeof handlePullRequest>[0];

/** The record a handler hands to the intake for this context. */
function recordOf(handle: (intake: Intake) => void): IntakeRecord {
  const records: IntakeRecord[] = [];
  handle({ accept: (record) => records.push(record) });
  expect(records).toHaveLength(1);
  return records[0]!;
}

function prContext(
  id: string,
  action: string,
  headSha: string,
  extra: Pick<PrShape, "labels" | "label" | "updatedAt" | "title" | "body" | "baseRef" | "changes"> = {},
): PullRequestContext {
  const payload = pullRequestPayload({
    action,
    number: PR,
    baseSha: "b".repeat(40),
    headRef: "feature",
    headSha,
    cloneUrl: "http://git.test/widgets.git",
    repoId: REPO_ID,
    ...extra,
  });
  return { id, name: "pull_request", payload } as unknown as PullRequestContext;
}

describe.each(kinds)("applying a delivery is one transaction (%s)", (kind) => {
  const database = useIntakeDatabase(kind);

  const sql = async (text: string, params: unknown[] = []) => (await database.handle.executeSql(text, params)).rows;
  const deliveries = async () =>
    (await sql("select delivery_id from webhook_deliveries order by delivery_id")).map((r) => r.delivery_id as string);
  const jobs = async (name = RUN_QUEUE) =>
    (await sql("select data->>'deliveryId' as delivery, singleton_key from pgboss.job where name = $1", [name])).map(
      (r) => r.delivery as string,
    );
  const run = () => findRun(database.handle.db, REPO_ID, PR);
  const onPullRequest = (context: PullRequestContext, d: IntakeDeps) =>
    applyRecord(
      recordOf((intake) => handlePullRequest(context, intake, database.capture.log)),
      d,
    );
  const onPullRequestClosed = (context: Context<"pull_request.closed">, d: IntakeDeps) =>
    applyRecord(
      recordOf((intake) => handlePullRequestClosed(context, intake, database.capture.log)),
      d,
    );
  const onIssueComment = (context: Context<"issue_comment.created">, d: IntakeDeps) =>
    applyRecord(
      recordOf((intake) => handleIssueComment(context, intake, database.capture.log)),
      d,
    );

  /** Makes the database refuse a row the statement writes late (after the delivery and the run). */
  const refuseJobsFor = (deliveryId: string) =>
    sql(
      `alter table pgboss.job add constraint refuse_for_test check (data->>'deliveryId' is distinct from '${deliveryId}')`,
    );
  const acceptJobsAgain = () => sql("alter table pgboss.job drop constraint refuse_for_test");
  /** Applies a pull request delivery while the database refuses its job: the statement must fail. */
  const applyRefused = async (context: PullRequestContext) => {
    await refuseJobsFor(context.id);
    try {
      await expect(onPullRequest(context, database.deps)).rejects.toThrow(/refuse_for_test/);
    } finally {
      await acceptJobsAgain();
    }
  };

  it("records the delivery, creates the run and queues one job, all committed", async () => {
    await onPullRequest(prContext("d-1", "opened", "1".repeat(40)), database.deps);
    expect(await deliveries()).toEqual(["d-1"]);
    expect((await run())?.headSha).toBe("1".repeat(40));
    expect(await jobs()).toEqual(["d-1"]);
    expect(database.capture.text()).toContain("review queued");
  });

  it("keeps nothing of a first delivery whose job the database refuses; its redelivery then goes through", async () => {
    await applyRefused(prContext("d-1", "opened", "1".repeat(40)));
    expect(await deliveries()).toEqual([]);
    expect(await run()).toBeUndefined();
    expect(await jobs()).toEqual([]);

    await onPullRequest(prContext("d-1", "opened", "1".repeat(40)), database.deps);
    expect(await deliveries()).toEqual(["d-1"]);
    expect((await run())?.headSha).toBe("1".repeat(40));
    expect(await jobs()).toEqual(["d-1"]);
  });

  it("keeps the run at its old head when a push's job is refused; the redelivery moves it", async () => {
    await onPullRequest(prContext("d-1", "opened", "1".repeat(40)), database.deps);
    await sql("truncate pgboss.job"); // the first job was taken: the next push must queue a new one
    const before = await run();

    await applyRefused(prContext("d-2", "synchronize", "2".repeat(40)));
    expect(await deliveries()).toEqual(["d-1"]);
    const after = await run();
    expect(after?.headSha).toBe("1".repeat(40));
    expect(after?.updatedAt).toEqual(before?.updatedAt);
    expect(await jobs()).toEqual([]);

    await onPullRequest(prContext("d-2", "synchronize", "2".repeat(40)), database.deps);
    expect(await deliveries()).toEqual(["d-1", "d-2"]);
    expect((await run())?.headSha).toBe("2".repeat(40));
    expect(await jobs()).toEqual(["d-2"]);
  });

  it("writes the review job exactly as pg-boss's own send() does for this queue", async () => {
    await onPullRequest(prContext("d-1", "opened", "1".repeat(40)), database.deps);
    const mine = (await run())!.id;
    await sql("truncate pgboss.job");
    await onPullRequest(prContext("d-2", "synchronize", "2".repeat(40)), database.deps);
    // pg-boss's job for another run, sent the documented way
    const other = mine + 1000;
    await database.queue.enqueue({
      runId: other,
      trigger: "synchronize",
      deliveryId: "d-boss",
      senderLogin: "octocat",
      senderType: "User",
      headSha: "3".repeat(40),
    });
    const rows = await sql(
      `select singleton_key, data, name, priority, state, retry_limit, retry_count, retry_delay, retry_backoff, singleton_on, expire_in::text,
         dead_letter, policy, started_on, completed_on, output, (keep_until - start_after)::text as kept_for, start_after <= now() as started
       from pgboss.job order by data->>'deliveryId' = 'd-boss'`,
    );
    expect(rows).toHaveLength(2);
    const [ours, theirs] = rows.map(({ singleton_key, data, ...rest }) => ({ key: singleton_key, data, rest }));
    expect(ours!.key).toBe(String(mine));
    expect(theirs!.key).toBe(String(other));
    expect(ours!.rest).toEqual(theirs!.rest);
    expect(ours!.data).toEqual({
      runId: mine,
      trigger: "synchronize",
      deliveryId: "d-2",
      senderLogin: expect.any(String),
      senderType: expect.any(String),
      headSha: "2".repeat(40),
    });
    expect(Object.keys(ours!.data as object).sort()).toEqual(Object.keys(theirs!.data as object).sort());
  });

  it("refuses to apply when the run queue does not exist, rather than dropping the job", async () => {
    const [{ name, ...queueRow }] = (await sql("select * from pgboss.queue where name = $1", [RUN_QUEUE])) as [
      Record<string, unknown>,
    ];
    await sql("update pgboss.queue set name = 'moved-for-test' where name = $1", [RUN_QUEUE]);
    try {
      await expect(onPullRequest(prContext("d-1", "opened", "1".repeat(40)), database.deps)).rejects.toThrow(
        /queue no-mistakes-run does not exist/,
      );
    } finally {
      await sql("update pgboss.queue set name = $1 where name = 'moved-for-test'", [name]);
    }
    expect(queueRow).toBeDefined();
  });

  it("treats a redelivered id as a no-op: no run change, no second job", async () => {
    await onPullRequest(prContext("d-1", "opened", "1".repeat(40)), database.deps);
    await sql("truncate pgboss.job"); // so a second enqueue would not merely collapse into the waiting job
    // Same id, different head: were anything applied, the run or the queue would show it.
    await onPullRequest(prContext("d-1", "synchronize", "3".repeat(40)), database.deps);
    expect(await deliveries()).toEqual(["d-1"]);
    expect((await run())?.headSha).toBe("1".repeat(40));
    expect(await jobs()).toEqual([]);
    expect(database.capture.text()).toContain("redelivery ignored");
  });

  it("applies one of two concurrent deliveries with the same id", async () => {
    await Promise.all([
      onPullRequest(prContext("d-1", "opened", "1".repeat(40)), database.deps),
      onPullRequest(prContext("d-1", "opened", "1".repeat(40)), database.deps),
    ]);
    expect(await deliveries()).toEqual(["d-1"]);
    expect(await jobs()).toEqual(["d-1"]);
    expect(database.capture.lines().filter((l) => l.msg === "review queued")).toHaveLength(1);
    expect(database.capture.lines().filter((l) => l.msg === "redelivery ignored")).toHaveLength(1);
  });

  it("keeps many concurrent pushes consistent: every delivery once, one waiting job per run", async () => {
    const n = 40;
    await Promise.all(
      Array.from({ length: n }, (_, i) =>
        onPullRequest(prContext(`c-${i}`, "synchronize", i.toString(16).padStart(40, "0")), database.deps),
      ),
    );
    expect(await deliveries()).toHaveLength(n);
    const queued = await jobs();
    expect(queued).toHaveLength(1);
    const logged = database.capture
      .lines()
      .filter((l) => l.msg === "review queued" || String(l.msg).startsWith("review already waiting"));
    expect(logged).toHaveLength(n);
  });

  it("rolls back a closed event's delivery with its run update", async () => {
    await onPullRequest(prContext("d-1", "opened", "1".repeat(40)), database.deps);
    const closed = {
      id: "d-close",
      name: "pull_request",
      payload: pullRequestPayload({
        action: "closed",
        number: PR,
        baseSha: "b".repeat(40),
        headRef: "feature",
        headSha: "1".repeat(40),
        cloneUrl: "x",
        repoId: REPO_ID,
      }),
    };
    const broken: IntakeDeps = {
      ...database.deps,
      transaction: (fn) =>
        database.deps.transaction(async (tx) => {
          await fn(tx);
          throw new Error("commit refused");
        }),
    };
    await expect(onPullRequestClosed(closed as never, broken)).rejects.toThrow("commit refused");
    expect(await deliveries()).toEqual(["d-1"]);
    expect((await run())?.state).not.toBe("closed");
    await onPullRequestClosed(closed as never, database.deps);
    expect((await run())?.state).toBe("closed");
  });

  it("queues a command in the same transaction as its delivery", async () => {
    const payload = examplePayload("issue_comment", "created");
    payload.issue.pull_request = { url: "https://example.test/pr" };
    payload.issue.number = PR;
    payload.comment.body = "/no-mistakes help";
    payload.comment.user = { ...payload.comment.user, type: "User", login: "octocat" };
    payload.installation = { id: 99, node_id: "inst" };
    const context = { id: "cmd-1", name: "issue_comment", payload } as unknown as Context<"issue_comment.created">;
    const failing: IntakeDeps = {
      ...database.deps,
      enqueueCommand: (job) =>
        database.queue.enqueueCommand(job, { executeSql: () => Promise.reject(new Error("connection lost")) }),
    };
    await expect(onIssueComment(context, failing)).rejects.toThrow("connection lost");
    expect(await deliveries()).toEqual([]);
    await onIssueComment(context, database.deps);
    await onIssueComment(context, database.deps); // redelivery
    expect(await deliveries()).toEqual(["cmd-1"]);
    expect(await jobs(COMMAND_QUEUE)).toEqual(["cmd-1"]);
  });

  it("keeps the run's labels from every event; a label added queues nothing, one removed queues a look", async () => {
    const head = "1".repeat(40);
    await onPullRequest(
      prContext("l-1", "opened", head, { labels: ["bug"], updatedAt: "2026-01-01T00:00:00Z" }),
      database.deps,
    );
    expect((await run())?.labels).toEqual(["bug"]);
    await sql("truncate pgboss.job"); // the review was taken

    // real labeled / unlabeled payloads (@octokit/webhooks-examples), pointed at this PR
    await onPullRequest(
      prContext("l-2", "labeled", head, {
        labels: ["bug", "no-review"],
        label: "no-review",
        updatedAt: "2026-01-01T00:01:00Z",
      }),
      database.deps,
    );
    expect((await run())?.labels).toEqual(["bug", "no-review"]);
    expect(await jobs()).toEqual([]);
    expect(await deliveries()).toContain("l-2");

    await onPullRequest(
      prContext("l-3", "unlabeled", head, { labels: ["bug"], label: "no-review", updatedAt: "2026-01-01T00:02:00Z" }),
      database.deps,
    );
    expect((await run())?.labels).toEqual(["bug"]);
    expect(await jobs()).toEqual(["l-3"]);
    const [job] = await sql("select data->>'trigger' as trigger from pgboss.job");
    expect(job?.trigger).toBe("unlabeled");

    // a late labeled event (older updated_at) does not move the labels back
    await onPullRequest(
      prContext("l-4", "labeled", head, {
        labels: ["bug", "no-review"],
        label: "no-review",
        updatedAt: "2026-01-01T00:01:30Z",
      }),
      database.deps,
    );
    expect((await run())?.labels).toEqual(["bug"]);
  });

  it("an edit refreshes the run's title, body and base; only a changed title or base queues a look", async () => {
    const head = "1".repeat(40);
    const pr = { title: "WIP: widgets", body: "First draft.", baseRef: "main" };
    const edited = (id: string, at: string, changes: Record<string, unknown>) =>
      prContext(id, "edited", head, { ...pr, changes, updatedAt: `2026-01-01T00:0${at}:00Z` });
    await onPullRequest(prContext("e-1", "opened", head, { ...pr, updatedAt: "2026-01-01T00:00:00Z" }), database.deps);
    await sql("truncate pgboss.job"); // the review was taken

    // the body alone: the run follows, nothing is queued
    pr.body = "Now with tests.";
    await onPullRequest(edited("e-2", "1", { body: { from: "First draft." } }), database.deps);
    expect(await run()).toMatchObject({ title: "WIP: widgets", body: "Now with tests." });
    expect(await deliveries()).toContain("e-2");
    expect(await jobs()).toEqual([]);
    expect(database.capture.lines()).toContainEqual(
      expect.objectContaining({ deliveryId: "e-2", msg: "run refreshed; nothing to review", edited: ["body"] }),
    );

    // the title (with the body): a look, as after a label removed
    pr.title = "Widgets";
    pr.body = "Ready.";
    await onPullRequest(
      edited("e-3", "2", { title: { from: "WIP: widgets" }, body: { from: "Now with tests." } }),
      database.deps,
    );
    expect(await run()).toMatchObject({ title: "Widgets", body: "Ready." });
    expect(await jobs()).toEqual(["e-3"]);
    const [job] = await sql("select data->>'trigger' as trigger from pgboss.job");
    expect(job?.trigger).toBe("edited");
    await sql("truncate pgboss.job");

    // the base branch: the PR's diff changed, a look too
    pr.baseRef = "develop";
    await onPullRequest(
      edited("e-4", "3", { base: { ref: { from: "main" }, sha: { from: "b".repeat(40) } } }),
      database.deps,
    );
    expect((await run())?.baseRef).toBe("develop");
    expect(await jobs()).toEqual(["e-4"]);
    await sql("truncate pgboss.job");

    // an edited record that does not say what changed (none is journalled so) refreshes only
    const record = recordOf((intake) =>
      handlePullRequest(edited("e-5", "4", { title: { from: "Widgets" } }), intake, database.capture.log),
    );
    expect(record).toMatchObject({ action: "edited", edited: ["title"] });
    delete (record as { edited?: unknown }).edited;
    await applyRecord(record, database.deps);
    expect(await deliveries()).toContain("e-5");
    expect(await jobs()).toEqual([]);
  });
});
