import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import type { IntakeRecord } from "../../src/intake/intake-record.js";
import { removeTempDirs } from "../helpers/temp-dir.js";
import { closeWebhookEndpoints, serveWebhookEndpoint } from "../helpers/webhook-endpoint.js";
import { examplePayload, pullRequestPayload } from "../helpers/webhook-payloads.js";

const SECRET = "malformed-test-secret";
afterAll(async () => {
  await closeWebhookEndpoints();
  removeTempDirs();
});

/** The real app's handlers (createApp, no workers) behind NoMistakesProbot's middleware, over HTTP with GitHub's signature. */
async function serve() {
  const applied: IntakeRecord[] = [];
  const {
    intake,
    dir,
    lines,
    post: postBody,
  } = await serveWebhookEndpoint({
    secret: SECRET,
    apply: async (r) => void applied.push(r),
    load: (probot, intake, log) => probot.load(createApp({ intake, log })),
  });
  const post = (event: string, id: string, payload: unknown) => postBody(id, JSON.stringify(payload), { event });
  /** Every line written to the delivery journal so far. */
  const journaled = () =>
    readdirSync(dir)
      .filter((f) => f.startsWith("journal-"))
      .flatMap((f) => readFileSync(join(dir, f), "utf8").split("\n").filter(Boolean))
      .map((l) => JSON.parse(l) as IntakeRecord);
  const warnings = () => lines().filter((l) => (l.level as number) >= 40);
  return { post, intake, applied, journaled, warnings, lines };
}

const prPayload = (action: string) =>
  pullRequestPayload({
    action,
    number: 3,
    baseSha: "b".repeat(40),
    headRef: "f",
    headSha: "1".repeat(40),
    cloneUrl: "https://github.com/o/r.git",
  });

function commentPayload(body: string): Record<string, any> {
  const payload = examplePayload("issue_comment", "created");
  payload.issue = { ...payload.issue, number: 3, pull_request: { url: "https://api.github.com/repos/o/r/pulls/3" } };
  payload.comment = { ...payload.comment, body, user: { ...payload.comment.user, type: "User" } };
  payload.installation = { id: 99, node_id: "inst" };
  return payload;
}

function reviewCommentPayload(
  body: string,
  extra: { inReplyTo?: number; user?: { login: string; id: number; type: string } } = {},
): Record<string, any> {
  const payload = examplePayload("pull_request_review_comment", "created");
  payload.comment = {
    ...payload.comment,
    id: 555,
    body,
    user: extra.user ?? { ...payload.comment.user, type: "User" },
    ...(extra.inReplyTo ? { in_reply_to_id: extra.inReplyTo } : {}),
  };
  payload.installation = { id: 99, node_id: "inst" };
  return payload;
}

function rerunPayload(): Record<string, any> {
  const payload = examplePayload("check_run", "rerequested");
  payload.check_run = { ...payload.check_run, name: "no-mistakes" };
  return payload;
}

const without = (payload: Record<string, any>, path: string[]): Record<string, any> => {
  const copy = structuredClone(payload);
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key];
  delete at[path.at(-1)!];
  return copy;
};

describe("a signed delivery whose payload lacks what its handler reads", () => {
  const cases = [
    {
      name: "pull_request.opened without pull_request.head",
      event: "pull_request",
      payload: () => without(prPayload("opened"), ["pull_request", "head"]),
      eventName: "pull_request.opened",
      missing: "pull_request.head",
    },
    {
      name: "pull_request.synchronize without pull_request",
      event: "pull_request",
      payload: () => without(prPayload("synchronize"), ["pull_request"]),
      eventName: "pull_request.synchronize",
      missing: "pull_request",
    },
    {
      name: "pull_request.opened without installation",
      event: "pull_request",
      payload: () => without(prPayload("opened"), ["installation"]),
      eventName: "pull_request.opened",
      missing: "installation",
    },
    {
      name: "pull_request.closed without pull_request",
      event: "pull_request",
      payload: () => without(prPayload("closed"), ["pull_request"]),
      eventName: "pull_request.closed",
      missing: "pull_request",
    },
    {
      name: "issue_comment.created without issue",
      event: "issue_comment",
      payload: () => without(commentPayload("/no-mistakes review"), ["issue"]),
      eventName: "issue_comment.created",
      missing: "issue",
    },
    {
      name: "issue_comment.created with a string comment id",
      event: "issue_comment",
      payload: () => ({
        ...commentPayload("/no-mistakes review"),
        comment: { ...commentPayload("x").comment, id: "12" },
      }),
      eventName: "issue_comment.created",
      missing: "comment.id",
    },
    {
      name: "pull_request_review_comment.created without comment.user.id",
      event: "pull_request_review_comment",
      payload: () => without(reviewCommentPayload("why?", { inReplyTo: 7 }), ["comment", "user", "id"]),
      eventName: "pull_request_review_comment.created",
      missing: "comment.user.id",
    },
    {
      name: "check_run.rerequested without check_run.head_sha",
      event: "check_run",
      payload: () => without(rerunPayload(), ["check_run", "head_sha"]),
      eventName: "check_run.rerequested",
      missing: "check_run.head_sha",
    },
    {
      name: "check_run.rerequested without check_run",
      event: "check_run",
      payload: () => without(rerunPayload(), ["check_run"]),
      eventName: "check_run.rerequested",
      missing: "check_run",
    },
  ];

  for (const c of cases) {
    it(`${c.name}: 200, nothing journaled, one warn line naming the delivery, the event and what is missing`, async () => {
      const { post, intake, applied, journaled, warnings, lines } = await serve();
      const res = await post(c.event, `bad-${c.eventName}`, c.payload());
      expect(res.status).toBe(200);
      await intake.settled();
      expect(journaled()).toEqual([]);
      expect(applied).toEqual([]);
      expect(warnings()).toEqual([
        expect.objectContaining({
          level: 40,
          deliveryId: `bad-${c.eventName}`,
          event: c.eventName,
          msg: "webhook payload does not have the event's shape; ignored",
        }),
      ]);
      const [warning] = warnings();
      expect((warning!.missing as string[]).some((m) => m.startsWith(`${c.missing}:`))).toBe(true);
      expect(lines().filter((l) => l.msg === "webhook handler failed")).toEqual([]);
    });
  }
});

describe("review comments", () => {
  it("a person's reply in a thread, and a mention of a bot or `/no-mistakes ask` anywhere, are journaled; bots, other comments and other commands are not", async () => {
    const { post, intake, journaled, warnings } = await serve();
    const bot = { login: "no-mistakes[bot]", id: 4242, type: "Bot" };
    expect(
      (await post("pull_request_review_comment", "rc-reply", reviewCommentPayload("It is fine.", { inReplyTo: 7 })))
        .status,
    ).toBe(200);
    await post("pull_request_review_comment", "rc-mention", reviewCommentPayload("@no-mistakes[bot] is this safe?"));
    await post("pull_request_review_comment", "rc-ask", reviewCommentPayload("/no-mistakes ask is this safe?"));
    await post(
      "pull_request_review_comment",
      "rc-bot",
      reviewCommentPayload("Resolved in abc.", { inReplyTo: 7, user: bot }),
    );
    await post("pull_request_review_comment", "rc-plain", reviewCommentPayload("A new remark, to nobody."));
    await post(
      "pull_request_review_comment",
      "rc-command",
      reviewCommentPayload("/no-mistakes fix NM-1", { inReplyTo: 7 }),
    );
    await intake.settled();
    expect(journaled().map((r) => [r.deliveryId, r.kind === "command" ? [r.event, r.job.command] : r.kind])).toEqual([
      [
        "rc-reply",
        [
          "pull_request_review_comment",
          { kind: "thread-reply", threadId: 7, body: "It is fine.", authorId: 21031067, asks: false },
        ],
      ],
      [
        "rc-mention",
        [
          "pull_request_review_comment",
          {
            kind: "thread-reply",
            threadId: 555,
            body: "@no-mistakes[bot] is this safe?",
            authorId: 21031067,
            asks: true,
          },
        ],
      ],
      [
        "rc-ask",
        [
          "pull_request_review_comment",
          {
            kind: "thread-reply",
            threadId: 555,
            body: "/no-mistakes ask is this safe?",
            authorId: 21031067,
            asks: true,
          },
        ],
      ],
    ]);
    expect(warnings()).toEqual([]);
  });
});

describe("well-formed real payloads still journal", () => {
  it("pull_request.opened, issue_comment.created with a command, and a re-run of our check run are journaled and applied", async () => {
    const { post, intake, applied, journaled, warnings } = await serve();
    expect(await post("pull_request", "ok-pr", prPayload("opened"))).toEqual({ status: 200, text: "ok\n" });
    expect(await post("issue_comment", "ok-comment", commentPayload("/no-mistakes review"))).toEqual({
      status: 200,
      text: "ok\n",
    });
    expect(await post("check_run", "ok-rerun", rerunPayload())).toEqual({ status: 200, text: "ok\n" });
    expect(await post("pull_request", "ok-closed", prPayload("closed"))).toEqual({ status: 200, text: "ok\n" });
    await intake.settled();
    const expected = [
      expect.objectContaining({
        kind: "pull_request",
        deliveryId: "ok-pr",
        action: "opened",
        run: expect.objectContaining({ prNumber: 3, headSha: "1".repeat(40), headRef: "f", installationId: 99 }),
      }),
      expect.objectContaining({
        kind: "command",
        deliveryId: "ok-comment",
        job: expect.objectContaining({ prNumber: 3, command: expect.objectContaining({ kind: "review" }) }),
      }),
      expect.objectContaining({ kind: "rerun", deliveryId: "ok-rerun", headSha: rerunPayload().check_run.head_sha }),
      expect.objectContaining({ kind: "pull_request_closed", deliveryId: "ok-closed", prNumber: 3 }),
    ];
    expect(journaled()).toEqual(expected);
    expect(applied).toEqual(expected);
    expect(warnings()).toEqual([]);
  });

  it("a deleted fork (head.repo null) and a PR without body are well-formed", async () => {
    const { post, intake, applied, warnings } = await serve();
    const payload = pullRequestPayload({
      action: "synchronize",
      number: 4,
      baseSha: "b".repeat(40),
      headRef: "f",
      headSha: "2".repeat(40),
      cloneUrl: "https://github.com/o/r.git",
      headRepo: null,
    });
    payload.pull_request.body = null;
    expect((await post("pull_request", "ok-fork", payload)).status).toBe(200);
    await intake.settled();
    expect(applied).toEqual([
      expect.objectContaining({
        deliveryId: "ok-fork",
        run: expect.objectContaining({ headRepoFullName: null, headCloneUrl: null, body: "" }),
      }),
    ]);
    expect(warnings()).toEqual([]);
  });
});
