import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { listRefusals } from "../../../src/db/refusals.js";
import { refusals as refusalsTable } from "../../../src/db/schema.js";
import type { IntakeRecord } from "../../../src/intake/intake-record.js";
import { Metrics } from "../../../src/metrics/metrics.js";
import { Refusals } from "../../../src/refusals/refusals.js";
import { MAX_WEBHOOK_BODY_BYTES } from "../../../src/server/webhook/limit-webhook-body.js";
import { captureLogger } from "../../helpers/capture-logger.js";
import { signature } from "../../helpers/signed-delivery.js";
import { streamPost } from "../../helpers/stream-post.js";
import { removeTempDirs } from "../../helpers/temp-dir.js";
import { createTestDatabase, type TestDatabase } from "../../helpers/test-database.js";
import { closeWebhookEndpoints, pullRequestBody, serveWebhookEndpoint } from "../../helpers/webhook-endpoint.js";
import { sample } from "../../metrics/sample.js";

/**
 * Webhook requests the app refuses — no valid delivery (400, 415), too large (413), the intake full or
 * stopping (503) — over the app's real endpoint (NoMistakesProbot's middleware, the intake), kept in the
 * refusals table as the operator page reads it: at most one row per kind a minute with a count, written
 * after the answer, never in its way.
 */

const SECRET = "webhook-refusals-secret";
const ZEROS = "sha256=" + "0".repeat(64);
/** Text of a request body that must never reach the table. */
const BODY_MARK = "body-text-never-stored";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase("pglite");
});
beforeEach(async () => {
  await database.handle.db.delete(refusalsTable);
});
afterAll(async () => {
  await closeWebhookEndpoints();
  await database.dispose();
  removeTempDirs();
});

/** The webhook endpoint, recording refusals in `db` (default: the test database). */
async function serve(
  options: { apply?: (r: IntakeRecord) => Promise<void>; maxBacklog?: number; db?: TestDatabase } = {},
) {
  const metrics = new Metrics({ processMetrics: false });
  const logs = captureLogger();
  const refusals = new Refusals({ db: (options.db ?? database).handle.db, log: logs.log, metrics, secrets: [SECRET] });
  const endpoint = await serveWebhookEndpoint({
    secret: SECRET,
    apply: options.apply ?? (async () => {}),
    maxBacklog: options.maxBacklog,
    metrics,
    refusals,
  });
  /** A POST to the webhook path with exactly these headers. */
  const raw = async (headers: Record<string, string>, body: string) => {
    const res = await fetch(endpoint.url, { method: "POST", headers, body });
    await res.text();
    return res.status;
  };
  return { ...endpoint, raw, refusals, metrics, logs };
}

/** The table's rows, oldest first, as [kind, reason, count]. */
async function rows() {
  return (await listRefusals(database.handle.db, 500))
    .reverse()
    .map((r) => [r.kind, r.repositoryFullName, r.prNumber, r.actor, r.reason, r.count]);
}

const body = (headSha: string) =>
  JSON.stringify({ ...(JSON.parse(pullRequestBody(headSha)) as object), mark: BODY_MARK });

describe("webhook refusals reach the refusals table (pglite)", () => {
  it("no valid delivery — a bad signature, a missing header, not JSON — is answered as before and kept as webhook_invalid, one row a minute with the count", async () => {
    const { post, raw, url, refusals, metrics } = await serve();
    const headers = {
      "content-type": "application/json",
      "x-github-event": "pull_request",
      "x-github-delivery": "0b4c6a80-1c2d-11f0-8e3a-1f2e3d4c5b6a",
    };

    expect((await post("good", body("1".repeat(40)))).status).toBe(200);
    expect((await post("bad-signature", body("2".repeat(40)), { signature: ZEROS })).status).toBe(400);
    expect(await raw(headers, body("3".repeat(40)))).toBe(400); // no signature header
    expect(await raw({ ...headers, "content-type": "text/plain", "x-hub-signature-256": ZEROS }, BODY_MARK)).toBe(415);
    expect(await raw({ ...headers, "x-github-delivery": "<b>hi</b>", "x-hub-signature-256": ZEROS }, "{")).toBe(400);
    expect((await fetch(url)).status).not.toBe(200); // a GET on the path: no delivery, no refusal
    await refusals.settled();

    expect(await rows()).toEqual([
      [
        "webhook_invalid",
        null,
        null,
        null,
        "webhook request refused (400, delivery bad-signature): its signature does not match WEBHOOK_SECRET, or its body is not JSON: the App's webhook secret and WEBHOOK_SECRET differ, or the sender is not GitHub",
        1,
      ],
    ]);
    await refusals.flush(); // what the minute's window holds, written now rather than when it ends
    const [, held] = await rows();
    expect(held).toEqual([
      "webhook_invalid",
      null,
      null,
      null,
      "webhook request refused (400, no delivery id): its signature does not match WEBHOOK_SECRET, or its body is not JSON: the App's webhook secret and WEBHOOK_SECRET differ, or the sender is not GitHub",
      3,
    ]);
    expect(sample(await metrics.text(), 'refusals_total{kind="webhook_invalid"}')).toBe(4);
    expect(JSON.stringify(await rows())).not.toContain(BODY_MARK);
    expect(JSON.stringify(await rows())).not.toContain("<b>");
  });

  it("a signed delivery whose body is JSON but not an object, or whose event header is empty: 400 saying so, kept as webhook_invalid; the next delivery is served", async () => {
    const applied: IntakeRecord[] = [];
    const { post, raw, refusals, metrics, intake } = await serve({ apply: async (r) => void applied.push(r) });
    const answers: [string, number, string][] = [];
    for (const [id, text] of ["null", "[]", '"x"', "1", "true", "false", "0", '""', " \n[{}]"].entries()) {
      const res = await post(`not-an-object-${id}`, text);
      answers.push([text, res.status, res.text]);
    }
    const emptyEvent = await raw(
      {
        "content-type": "application/json",
        "x-github-event": "",
        "x-github-delivery": "empty-event",
        "x-hub-signature-256": signature(SECRET, "{}"),
      },
      "{}",
    );
    expect((await post("good-after", body("1".repeat(40)))).status).toBe(200);
    await refusals.settled();
    await refusals.flush();
    await intake.settled();

    for (const [text, status, answer] of answers) {
      expect([text, status]).toEqual([text, 400]);
      expect(JSON.parse(answer)).toEqual({
        error: "a webhook delivery's body is a JSON object, and this one is not",
      });
    }
    expect(emptyEvent).toBe(400);
    expect(await rows()).toEqual([
      [
        "webhook_invalid",
        null,
        null,
        null,
        "webhook request refused (400, delivery not-an-object-0): a webhook delivery's body is a JSON object, and this one is not",
        1,
      ],
      [
        "webhook_invalid",
        null,
        null,
        null,
        "webhook request refused (400, delivery empty-event): the x-github-event header is empty",
        9,
      ],
    ]);
    expect(sample(await metrics.text(), 'refusals_total{kind="webhook_invalid"}')).toBe(10);
    expect(applied.map((r) => r.deliveryId)).toEqual(["good-after"]);
  });

  it("a signed delivery without the event header, and an unsigned null body: refused as before, for what they lack", async () => {
    const { url, raw, refusals } = await serve();
    const headers = { "content-type": "application/json", "x-github-delivery": "no-event" };
    const noEvent = await fetch(url, {
      method: "POST",
      headers: { ...headers, "x-hub-signature-256": signature(SECRET, "{}") },
      body: "{}",
    });
    expect(noEvent.status).toBe(400);
    expect(await noEvent.json()).toEqual({ error: "Required headers missing: x-github-event" });
    const unsigned = {
      "x-github-event": "pull_request",
      "x-hub-signature-256": ZEROS,
      "x-github-delivery": "unsigned",
    };
    expect(await raw({ ...headers, ...unsigned }, "null")).toBe(400);
    await refusals.flush();
    expect((await rows()).map((r) => r[4])).toEqual([
      "webhook request refused (400, delivery no-event): required headers missing: x-github-event",
      "webhook request refused (400, delivery unsigned): its signature does not match WEBHOOK_SECRET, or its body is not JSON: the App's webhook secret and WEBHOOK_SECRET differ, or the sender is not GitHub",
    ]);
  });

  it("the missing headers and the content type are named in the reason", async () => {
    const { raw, refusals } = await serve();
    expect(await raw({ "content-type": "application/json", "x-github-event": "ping" }, "{}")).toBe(400);
    await refusals.settled();
    expect(await rows()).toEqual([
      [
        "webhook_invalid",
        null,
        null,
        null,
        "webhook request refused (400, no delivery id): required headers missing: x-hub-signature-256, x-github-delivery",
        1,
      ],
    ]);
    await refusals.stop();

    const next = await serve();
    expect(await next.raw({ "content-type": "text/plain" }, BODY_MARK)).toBe(415);
    await next.refusals.settled();
    expect((await rows()).at(-1)).toEqual([
      "webhook_invalid",
      null,
      null,
      null,
      "webhook request refused (415, no delivery id): its content-type is not application/json",
      1,
    ]);
  });

  it("a flood of unsigned posts: every one answered 400 and counted, and two rows whatever their number", async () => {
    const { post, refusals, metrics } = await serve();
    const statuses: number[] = [];
    for (let batch = 0; batch < 10; batch++)
      statuses.push(
        ...(await Promise.all(
          Array.from({ length: 20 }, async (_, i) => {
            const res = await post(`flood-${batch}-${i}`, body("4".repeat(40)), { signature: ZEROS });
            return res.status;
          }),
        )),
      );
    expect(statuses).toEqual(Array(200).fill(400));
    await refusals.stop();

    const kept = await rows();
    expect(kept.map((r) => [r[0], r[5]])).toEqual([
      ["webhook_invalid", 1],
      ["webhook_invalid", 199],
    ]);
    expect(sample(await metrics.text(), 'refusals_total{kind="webhook_invalid"}')).toBe(200);
  });

  it("a body over 25 MB: 413 unread, kept as webhook_body_too_large with its size and delivery, never its bytes", async () => {
    const { url, refusals } = await serve();
    const res = await streamPost(
      url,
      {
        "content-type": "application/json",
        "x-github-event": "pull_request",
        "x-github-delivery": "d-large",
        "content-length": String(MAX_WEBHOOK_BODY_BYTES + 1),
      },
      0,
    );
    expect(res.status).toBe(413);
    await refusals.settled();
    expect(await rows()).toEqual([
      [
        "webhook_body_too_large",
        null,
        null,
        null,
        `webhook body refused (413, delivery d-large): a content-length of ${MAX_WEBHOOK_BODY_BYTES + 1} bytes, over the cap of ${MAX_WEBHOOK_BODY_BYTES}; GitHub sends at most 25 MB, so the sender is not GitHub`,
        1,
      ],
    ]);
  });

  it("the intake full, then stopping: 503s kept as intake_full and intake_stopping with the delivery's repository, PR and sender", async () => {
    const { post, intake, refusals } = await serve({ apply: () => new Promise(() => {}), maxBacklog: 1 });
    expect((await post("d-1", body("5".repeat(40)))).status).toBe(200);
    expect((await post("d-2", body("6".repeat(40)))).status).toBe(503);
    await intake.stop(10);
    expect((await post("d-3", body("7".repeat(40)))).status).toBe(503);
    await refusals.settled();

    expect(await rows()).toEqual([
      [
        "intake_full",
        "octo-org/widgets",
        3,
        "octocat",
        "delivery d-2 (pull_request) answered 503: 1 deliveries wait for the database (the limit); is the database down or slow?",
        1,
      ],
      [
        "intake_stopping",
        "octo-org/widgets",
        3,
        "octocat",
        "delivery d-3 (pull_request) answered 503: this process is stopping; GitHub shows it failed and the delivery sweep redelivers it",
        1,
      ],
    ]);
  });

  it("with the database gone the answers are the same — 200 for a delivery, 400 for a bad one — and the lost row is a warn line", async () => {
    const gone = await createTestDatabase("pglite");
    await gone.dispose();
    const { post, refusals, logs, intake } = await serve({ db: gone });
    expect((await post("bad", body("8".repeat(40)), { signature: ZEROS })).status).toBe(400);
    expect((await post("good", body("9".repeat(40)))).status).toBe(200);
    await intake.settled();
    await refusals.stop();
    expect(
      logs
        .lines()
        .filter((l) => l.msg === "refusal not recorded for the operator page")
        .map((l) => [l.level, l.kind]),
    ).toEqual([[40, "webhook_invalid"]]);
  });
});
