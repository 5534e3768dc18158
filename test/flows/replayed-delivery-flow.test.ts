import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { NoMistakesProbot } from "../../src/server/no-mistakes-probot.js";
import { bugAndNitReview, FlowFixture } from "../helpers/flow-fixture.js";
import { signature, signedWebhookTarget } from "../helpers/signed-delivery.js";
import { useFlowDatabase } from "../helpers/use-flow-database.js";

/**
 * Someone who captured a delivery GitHub signed (a proxy's log, a public smee channel) posts it again under a
 * new delivery id: the signature holds, so only its content tells it apart. Over real HTTP, through the
 * app's webhook middleware, intake, queue and workers: the replay is answered 2xx, recorded as a replay of
 * the first and changes nothing; GitHub's own redelivery (the same id) is still a no-op.
 */

const PATH = "/api/github/webhooks";
/** The app harness's webhook secret. */
const SECRET = "test-webhook-secret";

let fx: FlowFixture;
const database = useFlowDatabase(() => fx, { allowHost: "127.0.0.1" });
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** The app's webhook middleware on a port of its own; GitHub's deliveries then reach it signed, over HTTP. */
async function deliverOverHttp(): Promise<string> {
  const middleware = await (fx.app.probot as NoMistakesProbot).getNodeMiddleware({ path: PATH });
  const server = createServer((req, res) => void middleware(req, res).then((done) => done || res.writeHead(404).end()));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${PATH}`;
  fx.github.webhookTarget = signedWebhookTarget(() => url, SECRET);
  return url;
}

const rows = async () =>
  (
    await database.handle.executeSql(
      "select delivery_id, event, body_digest, replay_of from webhook_deliveries order by received_at, delivery_id",
    )
  ).rows;

describe("a captured delivery replayed under a new delivery id", () => {
  it("is answered 200, recorded as a replay and applied once: one status reply, one review", async () => {
    fx = await FlowFixture.start(database.handle);
    await deliverOverHttp();
    const head = fx.push({ "src/app.ts": "export const a = 1;\n" });
    fx.app.scenario([bugAndNitReview("ask-user")]);
    const opened = fx.prPayload("opened", head);
    const open = await fx.github.deliver("pull_request", opened);
    await fx.idle();
    expect(open.status_code).toBe(200);
    expect(fx.github.reviews).toHaveLength(1);

    const status = fx.commentPayload("/no-mistakes status", { login: "visitor" });
    const first = await fx.github.deliver("issue_comment", status);
    await fx.idle();
    const statusReplies = () => fx.replies().filter((r) => r.includes("**Open findings"));
    expect(statusReplies()).toHaveLength(1);

    // The same bytes, signed by GitHub, under new delivery ids; then GitHub redelivers the first.
    const replayed = await fx.github.deliver("issue_comment", status);
    const reopened = await fx.github.deliver("pull_request", opened);
    const redelivered = await fx.github.deliver("issue_comment", status, first.guid, true);
    await fx.idle();
    expect([replayed, reopened, redelivered].map((d) => d.status_code)).toEqual([200, 200, 200]);

    expect(statusReplies()).toHaveLength(1);
    expect(fx.github.reviews).toHaveLength(1);
    expect(fx.app.agentCalls().filter((c) => c.role === "reviewer")).toHaveLength(1);
    const digest = (payload: Record<string, unknown>) => signature(SECRET, JSON.stringify(payload)).slice(7);
    expect(await rows()).toEqual([
      { delivery_id: open.guid, event: "pull_request", body_digest: digest(opened), replay_of: null },
      { delivery_id: first.guid, event: "issue_comment", body_digest: digest(status), replay_of: null },
      { delivery_id: replayed.guid, event: "issue_comment", body_digest: digest(status), replay_of: first.guid },
      { delivery_id: reopened.guid, event: "pull_request", body_digest: digest(opened), replay_of: open.guid },
    ]);
    const lines = fx.app.logs.lines();
    expect(
      lines
        .filter((l) => l.msg === "replayed delivery ignored: its body was applied before")
        .map((l) => [l.deliveryId, l.replayOf]),
    ).toEqual([
      [replayed.guid, first.guid],
      [reopened.guid, open.guid],
    ]);
    expect(lines.filter((l) => l.msg === "redelivery ignored").map((l) => l.deliveryId)).toEqual([first.guid]);
  });
});
