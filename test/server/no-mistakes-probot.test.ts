import { afterAll, describe, expect, it } from "vitest";
import type { IntakeRecord } from "../../src/intake/intake-record.js";
import { MAX_WEBHOOK_BODY_BYTES } from "../../src/server/webhook/limit-webhook-body.js";
import { streamPost } from "../helpers/stream-post.js";
import { removeTempDirs } from "../helpers/temp-dir.js";
import { closeWebhookEndpoints, pullRequestBody as body, serveWebhookEndpoint } from "../helpers/webhook-endpoint.js";

const SECRET = "probot-test-secret";
afterAll(async () => {
  await closeWebhookEndpoints();
  removeTempDirs();
});

/** The app's webhook endpoint over HTTP: NoMistakesProbot's middleware, the pull request handler, an intake. */
const serve = (apply: (r: IntakeRecord) => Promise<void>, maxBacklog = 10) =>
  serveWebhookEndpoint({ secret: SECRET, apply, maxBacklog });

const MiB = 1024 * 1024;
/** Headers of a delivery that is not signed with the secret. */
const unsigned = (id: string) => ({
  "content-type": "application/json",
  "x-github-event": "pull_request",
  "x-github-delivery": id,
  "x-hub-signature-256": "sha256=" + "0".repeat(64),
});
const refusals = (lines: () => Record<string, unknown>[]) =>
  lines().filter((l) => l.msg === "webhook body over the size cap refused");

describe("NoMistakesProbot's webhook endpoint", () => {
  it("answers a signed delivery 200 once the handler has journaled it", async () => {
    const applied: IntakeRecord[] = [];
    const { post, intake } = await serve(async (r) => void applied.push(r));
    expect(await post("d-1", body("1".repeat(40)))).toEqual({ status: 200, text: "ok\n" });
    await intake.settled();
    expect(applied).toEqual([
      expect.objectContaining({
        kind: "pull_request",
        deliveryId: "d-1",
        action: "synchronize",
        run: expect.objectContaining({ headSha: "1".repeat(40), prNumber: 3 }),
      }),
    ]);
  });

  it("refuses a bad signature with 400 and hands nothing to the intake", async () => {
    const applied: IntakeRecord[] = [];
    const { post, intake } = await serve(async (r) => void applied.push(r));
    const res = await post("d-2", body("2".repeat(40)), { signature: "sha256=" + "0".repeat(64) });
    expect(res.status).toBe(400);
    expect(res.text).toContain("signature does not match");
    await intake.settled();
    expect(applied).toEqual([]);
  });

  it("answers 503 with the reason when the intake is full, so GitHub shows the delivery failed", async () => {
    const { post, lines } = await serve(() => new Promise(() => {}), 1);
    expect((await post("d-3", body("3".repeat(40)))).status).toBe(200);
    const refused = await post("d-4", body("4".repeat(40)));
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.text)).toEqual({
      error: "IntakeRefusedError: too many deliveries wait for the database (1); refusing more until they are applied",
    });
    expect(lines()).toContainEqual(expect.objectContaining({ msg: "webhook handler failed", deliveryId: "d-4" }));
  });

  it("refuses a content-length over 25 MB with 413 at once, without waiting for the body, and closes the connection", async () => {
    const applied: IntakeRecord[] = [];
    const { url, intake, lines } = await serve(async (r) => void applied.push(r));
    const res = await streamPost(url, { ...unsigned("d-5"), "content-length": String(MAX_WEBHOOK_BODY_BYTES + 1) }, 0); // headers, then nothing
    expect(res).toMatchObject({ status: 413, closed: true, sentBytes: 0 });
    expect(JSON.parse(res.text)).toEqual({
      error: `Payload too large: a webhook body may be at most ${MAX_WEBHOOK_BODY_BYTES} bytes (GitHub sends at most 25 MB)`,
    });
    expect(refusals(lines)).toEqual([
      expect.objectContaining({ level: 40, deliveryId: "d-5", contentLength: MAX_WEBHOOK_BODY_BYTES + 1, status: 413 }),
    ]);
    await intake.settled();
    expect(applied).toEqual([]);
  });

  it("refuses a chunked body with 413 as soon as it passes 25 MB, stops reading, and closes the connection", async () => {
    const applied: IntakeRecord[] = [];
    const { url, intake, lines } = await serve(async (r) => void applied.push(r));
    const res = await streamPost(url, unsigned("d-6"), 100 * MiB); // no content-length: Transfer-Encoding: chunked
    expect(res).toMatchObject({ status: 413, closed: true });
    expect(res.sentBytes).toBeGreaterThan(MAX_WEBHOOK_BODY_BYTES);
    expect(res.sentBytes).toBeLessThan(64 * MiB); // the client could not send the rest: nobody read it (the surplus sat in socket buffers)
    const [refusal] = refusals(lines);
    expect(refusal).toMatchObject({ level: 40, deliveryId: "d-6", status: 413 });
    expect(refusal!.receivedBytes).toBeGreaterThan(MAX_WEBHOOK_BODY_BYTES);
    expect(refusal!.receivedBytes).toBeLessThanOrEqual(MAX_WEBHOOK_BODY_BYTES + MiB); // refused with the chunk that passed the cap
    expect(refusals(lines)).toHaveLength(1);
    await intake.settled();
    expect(applied).toEqual([]);
  });

  it("still answers a signed delivery of exactly 25 MB 200 and journals it", async () => {
    const applied: IntakeRecord[] = [];
    const { post, intake, lines } = await serve(async (r) => void applied.push(r));
    const payload = JSON.parse(body("7".repeat(40))) as Record<string, unknown>;
    const padding = MAX_WEBHOOK_BODY_BYTES - JSON.stringify({ ...payload, padding: "" }).length;
    const full = JSON.stringify({ ...payload, padding: "x".repeat(padding) });
    expect(Buffer.byteLength(full)).toBe(MAX_WEBHOOK_BODY_BYTES);
    expect(await post("d-7", full)).toEqual({ status: 200, text: "ok\n" });
    await intake.settled();
    expect(applied).toEqual([
      expect.objectContaining({
        kind: "pull_request",
        deliveryId: "d-7",
        run: expect.objectContaining({ headSha: "7".repeat(40) }),
      }),
    ]);
    expect(refusals(lines)).toEqual([]);
  });
});
