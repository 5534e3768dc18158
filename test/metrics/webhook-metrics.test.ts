import { afterAll, describe, expect, it } from "vitest";
import { applyRecord } from "../../src/intake/apply-record.js";
import { createIntakeDeps } from "../../src/intake/intake-deps.js";
import type { IntakeRecord } from "../../src/intake/intake-record.js";
import { WebhookIntake } from "../../src/intake/webhook-intake.js";
import { Metrics } from "../../src/metrics/metrics.js";
import { Refusals } from "../../src/refusals/refusals.js";
import { MAX_WEBHOOK_BODY_BYTES } from "../../src/server/webhook/limit-webhook-body.js";
import { captureLogger } from "../helpers/capture-logger.js";
import { pullRequestRecord } from "../helpers/intake-records.js";
import { streamPost } from "../helpers/stream-post.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { closeWebhookEndpoints, pullRequestBody, serveWebhookEndpoint } from "../helpers/webhook-endpoint.js";
import { useQueueDatabase, type QueueDatabase } from "../helpers/use-queue-database.js";
import { sample } from "./sample.js";

const SECRET = "metrics-test-secret";
const intakes: WebhookIntake[] = [];
afterAll(async () => {
  await closeWebhookEndpoints();
  for (const i of intakes) await i.stop(100);
  removeTempDirs();
});

/** The webhook endpoint as the app serves it (NoMistakesProbot's middleware, the PR handler, an intake), observed. */
async function serve(database: QueueDatabase, apply: (r: IntakeRecord) => Promise<void>, maxBacklog = 10) {
  const metrics = new Metrics({ processMetrics: false });
  const refusals = new Refusals({ db: database.handle.db, log: captureLogger().log, metrics });
  const endpoint = await serveWebhookEndpoint({ secret: SECRET, apply, maxBacklog, metrics, refusals });
  /** The status of a delivery of `event`, signed unless `signature` is given. */
  const post = async (id: string, body: string, event?: string, signature?: string) =>
    (await endpoint.post(id, body, { event, signature })).status;
  return { post, url: endpoint.url, metrics, intake: endpoint.intake };
}

const body = (action: string, headSha: string) => pullRequestBody(headSha, action);

describe("webhook metrics over the app's webhook endpoint (pglite: refusals are kept with their count)", () => {
  const database = useQueueDatabase("pglite");

  it("counts each answer by event and outcome, and times every one", async () => {
    const { post, url, metrics } = await serve(database, async () => {});
    expect(await post("d-1", body("synchronize", "1".repeat(40)))).toBe(200); // journaled
    expect(await post("d-2", body("synchronize", "2".repeat(40)))).toBe(200);
    expect(await post("d-3", body("labeled", "3".repeat(40)))).toBe(200); // no handler for it
    expect(await post("d-4", JSON.stringify({ action: "synchronize", number: 3 }))).toBe(200); // not the event's shape: ignored
    expect(await post("d-5", body("synchronize", "5".repeat(40)), "pull_request", "sha256=" + "0".repeat(64))).toBe(
      400,
    ); // bad signature
    expect(await post("d-6", "{}", "made_up_event")).toBe(200); // an event nobody subscribes to
    const tooLarge = await streamPost(
      url,
      {
        "content-type": "application/json",
        "x-github-event": "pull_request",
        "x-github-delivery": "d-7",
        "content-length": String(MAX_WEBHOOK_BODY_BYTES + 1),
      },
      0,
    );
    expect(tooLarge.status).toBe(413);
    expect((await fetch(url)).status).not.toBe(200); // a GET on the path is no delivery

    const text = await metrics.text();
    expect(sample(text, 'webhook_deliveries_total{event="pull_request",outcome="accepted"}')).toBe(2);
    expect(sample(text, 'webhook_deliveries_total{event="pull_request",outcome="ignored"}')).toBe(2);
    expect(sample(text, 'webhook_deliveries_total{event="pull_request",outcome="rejected"}')).toBe(2);
    expect(sample(text, 'webhook_deliveries_total{event="other",outcome="ignored"}')).toBe(1); // the header's value is not a label
    expect(text).not.toContain("made_up_event");
    expect(sample(text, 'refusals_total{kind="webhook_body_too_large"}')).toBe(1);
    expect(sample(text, 'refusals_total{kind="webhook_invalid"}')).toBe(1); // the bad signature; a GET is no delivery
    expect(sample(text, "webhook_ack_seconds_count")).toBe(7);
    expect(sample(text, "webhook_ack_seconds_sum")).toBeGreaterThan(0);
    expect(sample(text, 'webhook_ack_seconds_bucket{le="+Inf"}')).toBe(7);
    expect(metrics.deliveries.size).toBe(0); // nothing kept once answered
  });

  it("counts a delivery the intake refuses (503) as failed, and the refusal by its kind", async () => {
    const { post, metrics } = await serve(database, () => new Promise(() => {}), 1);
    expect(await post("d-8", body("synchronize", "8".repeat(40)))).toBe(200);
    expect(await post("d-9", body("synchronize", "9".repeat(40)))).toBe(503);

    const text = await metrics.text();
    expect(sample(text, 'webhook_deliveries_total{event="pull_request",outcome="accepted"}')).toBe(1);
    expect(sample(text, 'webhook_deliveries_total{event="pull_request",outcome="failed"}')).toBe(1);
    expect(sample(text, 'refusals_total{kind="intake_full"}')).toBe(1);
  });
});

describe("duplicate deliveries, as the intake applies them (pglite)", () => {
  const database = useQueueDatabase("pglite");

  it("counts a redelivered id once as duplicate, under its event", async () => {
    const { log } = captureLogger();
    const metrics = new Metrics({ processMetrics: false });
    const deps = createIntakeDeps({ database: database.handle, queue: database.queue, log, metrics });
    const intake = WebhookIntake.open({ dir: tempDir(), apply: (r) => applyRecord(r, deps), log, metrics });
    intakes.push(intake);
    const record = pullRequestRecord("redelivered-1", { prNumber: 5, headSha: "c".repeat(40) });
    const rerun: IntakeRecord = {
      kind: "rerun",
      deliveryId: "rerun-1",
      repositoryId: 4242,
      prNumber: 5,
      headSha: "c".repeat(40),
      sender: { login: "octocat", type: "User" },
    };
    intake.accept(record);
    intake.accept(record);
    intake.accept(rerun);
    intake.accept(rerun);
    await intake.settled();

    const text = await metrics.text();
    expect(sample(text, 'webhook_deliveries_total{event="pull_request",outcome="duplicate"}')).toBe(1);
    expect(sample(text, 'webhook_deliveries_total{event="check_run",outcome="duplicate"}')).toBe(1);
  });
});
