import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { findRun } from "../../src/db/runs.js";
import { startDeliverySweep, type DeliverySweep } from "../../src/intake/start-delivery-sweep.js";
import { FlowFixture, numbered, OWNER, REPO, REPO_ID } from "../helpers/flow-fixture.js";
import { INSTALLATION_TOKEN } from "../helpers/github-stand-in.js";
import { useFlowDatabase } from "../helpers/use-flow-database.js";
import { pullRequestPayload } from "../helpers/webhook-payloads.js";

/**
 * GitHub marks a delivery failed when the app does not answer, and never sends it again by itself. The
 * app's sweep reads the App's delivery log when it is back and asks GitHub to redeliver what failed:
 * the pushes made while it was down get reviewed without anyone pressing "Redeliver".
 */

let fx: FlowFixture;
let sweep: DeliverySweep | undefined;
const database = useFlowDatabase(() => fx);
afterEach(async () => {
  await sweep?.stop();
  sweep = undefined;
});

async function until(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${fx.app.logs.text().slice(-3000)}`);
    await sleep(20);
  }
}

describe("deliveries GitHub could not make are redelivered", () => {
  it("two pushes while the app is down: when it is back, both heads are reviewed", async () => {
    let prB = 0;
    fx = await FlowFixture.start(database.handle, {
      pulls: (n) => (n === prB ? pullB("opened").pull_request : undefined),
    });
    prB = fx.pr + 5000;
    const { github, app } = fx;
    const up = (delivery: { id: string; name: string; payload: Record<string, any> }) =>
      app.receive(delivery.name, delivery.payload, delivery.id);
    github.webhookTarget = up;
    app.scenario([{ role: "reviewer", answer: { summary: "Nothing to report.", findings: [], resolved: [] } }]);

    /** A second pull request on branch `feature-b` of the same repository. */
    function pullB(action: string, extra: Record<string, unknown> = {}) {
      return pullRequestPayload({
        action,
        number: prB,
        title: `Widget change ${prB}`,
        baseSha: fx.baseSha,
        headRef: "feature-b",
        headSha: fx.remote.remoteSha("refs/heads/feature-b"),
        cloneUrl: fx.remote.bare,
        repoId: REPO_ID,
        fullName: `${OWNER}/${REPO}`,
        ...extra,
      });
    }
    function pushB(files: Record<string, string>): string {
      fx.remote.checkout("feature-b");
      fx.remote.commit(files, "change b");
      const head = fx.remote.publish("feature-b", prB);
      fx.remote.checkout("feature");
      return head;
    }

    // Both PRs opened and reviewed while the app is up.
    const a1 = fx.push({ "src/app.ts": numbered("app", 30, { 5: "a first" }) });
    fx.remote.checkout("main");
    fx.remote.checkout("feature-b", true);
    fx.remote.commit({ "src/b.ts": numbered("b", 10) }, "b first");
    fx.remote.publish("feature-b", prB);
    fx.remote.checkout("feature");
    await github.deliver("pull_request", fx.prPayload("opened", a1));
    await github.deliver("pull_request", pullB("opened"));
    await app.idle();
    expect((await findRun(database.handle.db, REPO_ID, fx.pr))!.lastReviewedSha).toBe(a1);

    // The app is down while both PRs are pushed to: GitHub logs two failed deliveries.
    github.webhookTarget = undefined;
    const a2 = fx.push({ "src/app.ts": numbered("app", 30, { 5: "a second" }) });
    const b2 = pushB({ "src/b.ts": numbered("b", 10, { 3: "b second" }) });
    const failedA = await github.deliver("pull_request", fx.prPayload("synchronize", a2, { before: a1 }));
    const failedB = await github.deliver("pull_request", pullB("synchronize", { before: fx.baseSha }));
    expect([failedA.status_code, failedB.status_code]).toEqual([0, 0]);

    // Back up: the sweep runs shortly after start.
    github.webhookTarget = up;
    sweep = startDeliverySweep({
      app: app.probot,
      database: database.handle,
      intervalMs: 5 * 60_000,
      firstDelayMs: 0,
      log: app.logs.log,
    });
    await until("the first sweep", () => app.logs.lines().some((l) => l.msg === "failed webhook deliveries swept"));
    await github.redeliveriesSettled();
    await app.idle();

    // Exactly the two failed attempts were redelivered, by the App (a JWT), never with an installation token.
    const asked = github.sent("POST", /^\/app\/hook\/deliveries\/\d+\/attempts$/);
    expect(asked.map((r) => Number(/deliveries\/(\d+)/.exec(r.path)![1])).sort()).toEqual(
      [failedA.id, failedB.id].sort(),
    );
    for (const r of [...asked, ...github.sent("GET", "/app/hook/deliveries")]) {
      expect(r.authorization).toMatch(/^bearer [\w-]+\.[\w-]+\.[\w-]+$/i);
      expect(r.authorization).not.toContain(INSTALLATION_TOKEN);
    }
    const redeliveries = github.hookDeliveries.filter((d) => d.redelivery);
    expect(redeliveries.map((d) => [d.guid, d.status_code]).sort()).toEqual(
      [
        [failedA.guid, 200],
        [failedB.guid, 200],
      ].sort(),
    );
    expect(app.logs.lines().find((l) => l.msg === "failed webhook deliveries swept")).toMatchObject({
      failed: 2,
      redelivered: 2,
      skipped: 0,
    });

    // Both new heads reviewed.
    expect((await findRun(database.handle.db, REPO_ID, fx.pr))!.lastReviewedSha).toBe(a2);
    expect((await findRun(database.handle.db, REPO_ID, prB))!.lastReviewedSha).toBe(b2);
    for (const head of [a2, b2]) {
      const checks = [...github.checkRuns.values()].filter((c) => c.head_sha === head);
      expect(checks.map((c) => c.status)).toEqual(["completed"]);
    }
    expect(app.agentCalls().filter((c) => c.role === "reviewer")).toHaveLength(4);

    // The next sweep finds nothing left to do.
    const again = await sweep.sweepNow();
    expect(again).toMatchObject({ kind: "swept", counts: { failed: 0, redelivered: 0 } });
    expect(github.sent("POST", /^\/app\/hook\/deliveries\/\d+\/attempts$/)).toHaveLength(2);
    await app.idle();
    expect(app.agentCalls().filter((c) => c.role === "reviewer")).toHaveLength(4);
  });
});
