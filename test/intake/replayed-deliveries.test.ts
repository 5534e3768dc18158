import type { EmitterWebhookEvent as Context } from "@octokit/webhooks";
import { describe, expect, it } from "vitest";
import { findRun } from "../../src/db/runs.js";
import { CHECK_NAME } from "../../src/domain/check-name.js";
import { REPLAY_WINDOW_SECONDS } from "../../src/db/webhook-deliveries.js";
import { applyRecord, applyRecords } from "../../src/intake/apply-record.js";
import type { IntakeRecord } from "../../src/intake/intake-record.js";
import type { Intake } from "../../src/intake/webhook-intake.js";
import { COMMAND_QUEUE, RUN_QUEUE } from "../../src/queue/queue-names.js";
import { onCheckRunRerequested } from "../../src/webhooks/on-check-run-rerequested.js";
import { onIssueComment } from "../../src/webhooks/on-issue-comment.js";
import { onPullRequest } from "../../src/webhooks/on-pull-request.js";
import { onPullRequestClosed } from "../../src/webhooks/on-pull-request-closed.js";
import { databaseKinds } from "../helpers/test-database.js";
import { useIntakeDatabase } from "../helpers/use-queue-database.js";
import { examplePayload, pullRequestPayload } from "../helpers/webhook-payloads.js";

/**
 * A body GitHub signed once, delivered again under a new delivery id (a captured delivery replayed): the
 * intake records it as a replay of the first and applies nothing, whatever the event; GitHub's own
 * redelivery (the same id) stays a no-op; the digest is what the webhook middleware kept of the body.
 */

const kinds = await databaseKinds();
const REPO_ID = 5151;
const PR = 9;
const HEAD = "1".repeat(40);
/** Two bodies' digests (the hex of their signatures, as the middleware keeps them). */
const BODY_A = "a".repeat(64);
const BODY_B = "b".repeat(64);

/** The record a handler hands to the intake for a delivery of `payload` as `id`, its body digest `digest`. */
function recordOf(
  handle: (context: never, intake: Intake) => void,
  name: string,
  payload: Record<string, unknown>,
  id: string,
  digest?: string,
): IntakeRecord {
  const records: IntakeRecord[] = [];
  handle({ id, name, payload } as never, { accept: (record) => records.push(record) });
  expect(records).toHaveLength(1);
  return digest === undefined ? records[0]! : { ...records[0]!, bodyDigest: digest };
}

const prPayload = (action: string, number = PR) =>
  pullRequestPayload({
    action,
    number,
    baseSha: "b".repeat(40),
    headRef: "feature",
    headSha: HEAD,
    cloneUrl: "http://git.test/widgets.git",
    repoId: REPO_ID,
  });

describe.each(kinds)("replayed deliveries (%s)", (kind) => {
  const database = useIntakeDatabase(kind);
  const log = () => database.capture.log;
  const sql = async (text: string, params: unknown[] = []) => (await database.handle.executeSql(text, params)).rows;
  /** [delivery id, replay of] of every recorded delivery. */
  const deliveries = async () =>
    (await sql("select delivery_id, replay_of from webhook_deliveries order by delivery_id")).map((r) => [
      r.delivery_id,
      r.replay_of,
    ]);
  const jobs = async (name = RUN_QUEUE) =>
    (await sql("select data->>'deliveryId' as delivery from pgboss.job where name = $1", [name])).map(
      (r) => r.delivery as string,
    );
  const logged = (msg: string) => database.capture.lines().filter((l) => l.msg === msg);
  const pullRequest = (id: string, digest?: string, action = "opened", number = PR) =>
    recordOf((c, intake) => onPullRequest(c, intake, log()), "pull_request", prPayload(action, number), id, digest);
  const apply = (record: IntakeRecord) => applyRecord(record, database.deps);

  it("a pull request body under a new id: recorded as a replay of the first, the run and queue untouched; redeliveries of either id are no-ops", async () => {
    await apply(pullRequest("d-1", BODY_A));
    expect(await jobs()).toEqual(["d-1"]);
    await sql("truncate pgboss.job"); // so a second job would show, not fold into the waiting one

    await apply(pullRequest("d-2", BODY_A));
    await apply(pullRequest("d-1", BODY_A)); // GitHub redelivers the first
    await apply(pullRequest("d-2", BODY_A)); // and the replay's id again
    expect(await deliveries()).toEqual([
      ["d-1", null],
      ["d-2", "d-1"],
    ]);
    expect(await jobs()).toEqual([]);
    expect(logged("replayed delivery ignored: its body was applied before")).toEqual([
      expect.objectContaining({ level: 40, deliveryId: "d-2", replayOf: "d-1", event: "pull_request.opened" }),
    ]);
    expect(logged("redelivery ignored").map((l) => l.deliveryId)).toEqual(["d-1", "d-2"]);

    // Another body of the same PR is another event: applied.
    await apply(pullRequest("d-3", BODY_B, "synchronize"));
    expect(await jobs()).toEqual(["d-3"]);
  });

  it("finds a replay inside a group applied together, and applies the others of the group", async () => {
    await apply(pullRequest("g-1", BODY_A));
    await sql("truncate pgboss.job");
    await applyRecords([pullRequest("g-2", BODY_A), pullRequest("g-3", BODY_B, "opened", PR + 1)], database.deps);
    expect(await deliveries()).toEqual([
      ["g-1", null],
      ["g-2", "g-1"],
      ["g-3", null],
    ]);
    expect(await jobs()).toEqual(["g-3"]);
  });

  it("a command's body under a new id: one command queued, one reply to come", async () => {
    const payload = examplePayload("issue_comment", "created");
    payload.issue.pull_request = { url: "https://example.test/pr" };
    payload.issue.number = PR;
    payload.comment.body = "/no-mistakes status";
    payload.comment.user = { ...payload.comment.user, type: "User", login: "octocat" };
    payload.installation = { id: 99, node_id: "inst" };
    const command = (id: string) =>
      recordOf(
        (c, intake) => onIssueComment(c as Context<"issue_comment.created">, intake, log()),
        "issue_comment",
        payload,
        id,
        BODY_A,
      );
    await apply(command("c-1"));
    await apply(command("c-2"));
    expect(await deliveries()).toEqual([
      ["c-1", null],
      ["c-2", "c-1"],
    ]);
    expect(await jobs(COMMAND_QUEUE)).toEqual(["c-1"]);
  });

  it("a re-run's body under a new id: no second review queued", async () => {
    await apply(pullRequest("o-1", BODY_A));
    await sql("truncate pgboss.job");
    const payload = examplePayload("check_run", "rerequested");
    payload.repository.id = REPO_ID;
    payload.check_run.head_sha = HEAD;
    payload.check_run.name = CHECK_NAME;
    payload.check_run.pull_requests = [{ number: PR }];
    payload.installation = { id: 99, node_id: "inst" };
    const rerun = (id: string) =>
      recordOf((c, intake) => onCheckRunRerequested(c, intake, log()), "check_run", payload, id, BODY_B);
    await apply(rerun("r-1"));
    expect(await jobs()).toEqual(["r-1"]);
    await sql("truncate pgboss.job");
    await apply(rerun("r-2"));
    expect(await jobs()).toEqual([]);
    expect(await deliveries()).toContainEqual(["r-2", "r-1"]);
  });

  it("a closed body replayed after the PR was reopened leaves the run open", async () => {
    await apply(pullRequest("o-1", BODY_A));
    const closed = (id: string) =>
      recordOf((c, intake) => onPullRequestClosed(c, intake, log()), "pull_request", prPayload("closed"), id, BODY_B);
    await apply(closed("x-1"));
    expect((await findRun(database.handle.db, REPO_ID, PR))?.state).toBe("closed");
    await apply(pullRequest("o-2", "c".repeat(64), "reopened"));
    await apply(closed("x-2"));
    expect((await findRun(database.handle.db, REPO_ID, PR))?.state).toBe("open");
    expect(await deliveries()).toContainEqual(["x-2", "x-1"]);
  });

  it("applies the same body again once the first was received longer ago than the window", async () => {
    await apply(pullRequest("w-1", BODY_A));
    await sql("truncate pgboss.job");
    await sql(`update webhook_deliveries set received_at = now() - interval '${REPLAY_WINDOW_SECONDS + 60} seconds'`);
    await apply(pullRequest("w-2", BODY_A));
    expect(await deliveries()).toEqual([
      ["w-1", null],
      ["w-2", null],
    ]);
    expect(await jobs()).toEqual(["w-2"]);
  });

  it("tells deliveries without a body digest (handed over by receive) apart by their id only", async () => {
    await apply(pullRequest("n-1"));
    await sql("truncate pgboss.job");
    await apply(pullRequest("n-2"));
    expect(await deliveries()).toEqual([
      ["n-1", null],
      ["n-2", null],
    ]);
    expect(await jobs()).toEqual(["n-2"]);
  });
});
