import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { WebhookIntake } from "../../src/intake/webhook-intake.js";
import type { IntakeRecord } from "../../src/intake/intake-record.js";
import { NoMistakesProbot } from "../../src/server/no-mistakes-probot.js";
import { onPullRequest } from "../../src/webhooks/on-pull-request.js";
import { captureLogger } from "../helpers/capture-logger.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { pullRequestPayload } from "../helpers/webhook-payloads.js";

const SECRET = "probot-test-secret";
const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) await new Promise((r) => s.close(r));
  removeTempDirs();
});

/** The app's webhook endpoint over HTTP: NoMistakesProbot's middleware, the pull request handler, an intake. */
async function serve(apply: (r: IntakeRecord) => Promise<void>, maxBacklog = 10) {
  const { log, lines } = captureLogger();
  const probot = new NoMistakesProbot({ appId: 1, privateKey: "unused", secret: SECRET, log });
  const intake = WebhookIntake.open({ dir: tempDir(), apply, log, maxBacklog });
  probot.events.on("pull_request.synchronize", async (event) => onPullRequest(event, intake, log));
  const middleware = await probot.getNodeMiddleware({ path: "/api/github/webhooks" });
  const server = createServer((req, res) => void middleware(req, res).then((handled) => handled || res.writeHead(404).end()));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/github/webhooks`;
  const post = async (id: string, body: string, signature = `sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`) => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-github-event": "pull_request", "x-github-delivery": id, "x-hub-signature-256": signature },
      body,
    });
    return { status: res.status, text: await res.text() };
  };
  return { post, intake, lines };
}

const body = (headSha: string) => JSON.stringify(pullRequestPayload({ action: "synchronize", number: 3, baseSha: "b".repeat(40), headRef: "f", headSha, cloneUrl: "https://github.com/o/r.git" }));

describe("NoMistakesProbot's webhook endpoint", () => {
  it("answers a signed delivery 200 once the handler has journaled it", async () => {
    const applied: IntakeRecord[] = [];
    const { post, intake } = await serve(async (r) => void applied.push(r));
    expect(await post("d-1", body("1".repeat(40)))).toEqual({ status: 200, text: "ok\n" });
    await intake.settled();
    expect(applied).toEqual([expect.objectContaining({ kind: "pull_request", deliveryId: "d-1", action: "synchronize", run: expect.objectContaining({ headSha: "1".repeat(40), prNumber: 3 }) })]);
  });

  it("refuses a bad signature with 400 and hands nothing to the intake", async () => {
    const applied: IntakeRecord[] = [];
    const { post, intake } = await serve(async (r) => void applied.push(r));
    const res = await post("d-2", body("2".repeat(40)), "sha256=" + "0".repeat(64));
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
    expect(JSON.parse(refused.text)).toEqual({ error: "IntakeRefusedError: too many deliveries wait for the database (1); refusing more until they are applied" });
    expect(lines()).toContainEqual(expect.objectContaining({ msg: "webhook handler failed", deliveryId: "d-4" }));
  });
});
