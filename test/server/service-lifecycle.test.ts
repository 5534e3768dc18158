import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { numbered } from "../helpers/flow-fixture.js";
import { sample } from "../metrics/sample.js";
import { descendants } from "../helpers/descendants.js";
import { useProcessWorlds } from "../helpers/use-process-worlds.js";
import {
  ONE_FINDING,
  pushAndDeliver,
  reviewPostedAt,
  WEBHOOK_SECRET,
  waitFor,
  type StartedApp,
} from "../helpers/process-world.js";
import { OAUTH_CLIENT } from "../helpers/github-stand-in.js";
import { isProcessAlive } from "../../src/system/process-identity.js";
import { postSignedDelivery } from "../helpers/signed-delivery.js";
import { databaseKinds } from "../helpers/test-database.js";

/**
 * The service's life as real processes on real PostgreSQL: killed mid-turn, stopped with and past the
 * grace period, split into web and workers, scraped. The app runs as `node --import tsx src/index.ts`;
 * GitHub is the stand-in in this process, reached through an HTTP relay as GitHub Enterprise over http;
 * webhooks are signed and POSTed as GitHub sends them. Every process runs with the default job lease
 * (3 × AGENT_TIMEOUT + 5 min = 50 min), so a job of a dead process that runs again within a minute was
 * handed back by the worker heartbeat, nothing else.
 */

const kinds = await databaseKinds();
const world = useProcessWorlds();

/** A turn that takes longer than any test waits. */
const FOREVER = 600_000;

function exitOf(app: StartedApp): Promise<{ code: number | null; at: number }> {
  if (app.child.exitCode !== null) return Promise.resolve({ code: app.child.exitCode, at: Date.now() });
  return new Promise((resolve) => app.child.once("exit", (code) => resolve({ code, at: Date.now() })));
}

/** An app whose reviewer never answers, with the PR's first push delivered and its turn running. */
async function reviewerTurnThatNeverEnds() {
  const w = await world();
  const first = await w.start({ name: "app", steps: [{ role: "reviewer", delayMs: FOREVER }] });
  w.sendWebhooksTo(first);
  const head = await pushAndDeliver(w, "for (i = 0; i <= n; i++)");
  const runId = await waitFor("the run row", () => w.runId(), 30_000);
  const killedTurn = await waitFor(
    "the reviewer's turn to start",
    async () => (await w.turns(runId)).find((t) => t.status === "running"),
    60_000,
  );
  return { w, first, head, runId, killedTurn };
}

describe.runIf(kinds.includes("postgres"))("the service's life as processes", { timeout: 180_000 }, () => {
  it("kill -9 mid-turn → the restarted app reviews the head within 60 s, once; the killed turn is interrupted; the next push is reviewed too", async () => {
    const { w, first, head, runId, killedTurn } = await reviewerTurnThatNeverEnds();
    await w.kill(first);

    // The dead process's job still holds the run, on the default lease: only the heartbeat can free it soon.
    const [held] = await w.sql<
      { state: string; lease: number }[]
    >`select state, extract(epoch from expire_in)::int as lease from pgboss.job where name = 'no-mistakes-run' and data->>'runId' = ${String(runId)}`;
    expect(held).toEqual({ state: "active", lease: 3 * 15 * 60 + 300 });
    expect(w.reviewsOf(head)).toHaveLength(0);

    const second = await w.start({ name: "app", steps: [{ role: "reviewer", answer: ONE_FINDING }] });
    w.sendWebhooksTo(second);
    const postedAt = await waitFor("the head's review after the restart", () => reviewPostedAt(w, head), 75_000);
    const afterRestart = postedAt - second.spawnedAt;
    console.log(`kill -9 mid-turn: the head was reviewed ${afterRestart} ms after the restart (spawn → review posted)`);
    expect(afterRestart).toBeLessThanOrEqual(60_000);
    expect(second.output()).toContain("worker stopped: its jobs are handed back to the queue");

    // The killed turn is closed as interrupted, in the database and in the summary's turn table.
    const turns = await waitFor(
      "the run's turns to be closed",
      async () => {
        const now = await w.turns(runId);
        return now.every((t) => t.status !== "running") && now.length >= 2 ? now : undefined;
      },
      30_000,
    );
    expect(turns.find((t) => t.id === killedTurn.id)).toMatchObject({
      status: "interrupted",
      error: expect.stringMatching(/stopped before it ended/),
    });
    expect(turns.filter((t) => t.id !== killedTurn.id).map((t) => t.status)).toEqual(["succeeded"]);
    const summary = await waitFor(
      "the summary's turn table",
      () =>
        w.github.issueComments.find(
          (c) => c.body.startsWith("<!-- no-mistakes:summary -->") && c.body.includes("| succeeded |"),
        )?.body,
      30_000,
    );
    expect(summary).toMatch(
      new RegExp(`\\| 1 \\| reviewer \\| opened \\| ${head.slice(0, 7)} \\|[^\\n]*\\| interrupted \\|`),
    );

    // A push right after the restart is not stuck behind the dead job.
    const pushedAt = Date.now();
    const next = await pushAndDeliver(w, "for (i = 0; i < n; i++)", head);
    const nextAt = await waitFor("the next push's review", () => reviewPostedAt(w, next), 60_000);
    console.log(
      `kill -9 mid-turn: the push after the restart was reviewed ${nextAt - pushedAt} ms after it was pushed`,
    );

    expect(w.reviewsOf(head)).toHaveLength(1);
    expect(w.reviewsOf(next)).toHaveLength(1);
    expect(w.relay.failures).toEqual([]);
  });
  it("kill -9 of the app process alone mid-turn: its worker process stops too — the turn closed as interrupted, the job handed back — and the next start reviews the head once", async () => {
    const { w, first, head, runId, killedTurn } = await reviewerTurnThatNeverEnds();
    // ROLE=all runs its workers in a child process: the turn is there, not in the app's own process
    const children = descendants(first.child.pid!);
    expect(children.length).toBeGreaterThan(0);

    await w.killAppOnly(first);
    // no orphan keeps running the turn: the worker process sees its parent go and stops at once
    await waitFor(
      "the app's child processes to exit",
      () => children.every((pid) => !isProcessAlive({ pid, started: "" })) || undefined,
      20_000,
    );
    const turns = await w.turns(runId);
    expect(turns.find((t) => t.id === killedTurn.id)?.status).toBe("interrupted");
    const [job] = await w.sql<
      { state: string }[]
    >`select state from pgboss.job where name = 'no-mistakes-run' and data->>'runId' = ${String(runId)} order by created_on desc limit 1`;
    expect(job?.state).toBe("retry");

    const second = await w.start({ name: "app", steps: [{ role: "reviewer", answer: ONE_FINDING }] });
    w.sendWebhooksTo(second);
    await waitFor("the head's review after the restart", () => reviewPostedAt(w, head), 60_000);
    await sleep(1000);
    expect(w.reviewsOf(head)).toHaveLength(1);
  });

  it("the failed-delivery sweep runs in the worker process, not in the one that answers webhooks: a push GitHub could not deliver while the app was down is redelivered and reviewed", async () => {
    const w = await world();
    // The app is down: GitHub logs the delivery as failed (no answer).
    const head = w.fixture.push({ "src/app.ts": numbered("app", 30, { 11: "for (i = 0; i <= n; i++)" }) }, "loop");
    const failed = await w.github.deliver("pull_request", w.fixture.prPayload("opened", head));
    expect(failed.status_code).toBe(0);

    const app = await w.start({
      name: "app",
      steps: [{ role: "reviewer", answer: ONE_FINDING }],
      env: { REDELIVER_INTERVAL: "10s" },
    });
    w.sendWebhooksTo(app);
    await waitFor("the redelivered push's review", () => reviewPostedAt(w, head), 60_000);

    const redelivered = w.github.hookDeliveries.filter((d) => d.redelivery);
    expect(redelivered.map((d) => [d.guid, d.status_code])).toEqual([[failed.guid, 200]]);
    const sweeps = app
      .output()
      .split("\n")
      .filter((l) => l.includes('"msg":"failed webhook deliveries swept"'))
      .map((l) => JSON.parse(l) as { pid: number; process?: string; redelivered: number });
    expect(sweeps.length).toBeGreaterThan(0);
    for (const sweep of sweeps) {
      expect(sweep.process).toBe("worker");
      expect(sweep.pid).not.toBe(app.pid);
    }
    expect(sweeps[0]!.redelivered).toBe(1);
    // Nothing was queued at start: the worker process was started for the sweep (WORKER_IDLE_EXIT's default).
    expect(app.output()).toContain('"reason":"the delivery sweep is due"');
  });

  it("WORKER_IDLE_EXIT=off: the worker process runs from the start; killed alone, the app keeps answering, restarts it, and the restarted one reviews the head", async () => {
    const w = await world();
    const app = await w.start({
      name: "app",
      steps: [{ role: "reviewer", answer: ONE_FINDING }],
      env: { WORKER_IDLE_EXIT: "off" },
    });
    w.sendWebhooksTo(app);
    const health = async () => (await (await fetch(app.url("/health"))).json()) as { workers?: string };
    await waitFor(
      "the worker process to run",
      async () => ((await health()).workers === "running" ? true : undefined),
      60_000,
    );
    const workerPid = () =>
      descendants(app.child.pid!).find((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("worker-process");
        } catch {
          return false;
        }
      });
    const first = workerPid();
    expect(first).toBeDefined();
    process.kill(first!, "SIGKILL");

    // webhooks are answered meanwhile, and the worker process comes back
    const head = await pushAndDeliver(w, "for (i = 0; i <= n; i++)");
    await waitFor(
      "a new worker process",
      async () => ((await health()).workers === "running" && workerPid() !== first ? true : undefined),
      30_000,
    );
    expect(app.output()).toContain("worker process exited; restarting it");
    await waitFor("the head's review by the restarted worker process", () => reviewPostedAt(w, head), 60_000);
    expect(app.child.exitCode).toBeNull();
    // Off: never stopped for being idle.
    expect(app.output()).not.toContain("worker process exiting: idle");
    expect((await health()).workers).toBe("running");
  });

  it("SIGTERM mid-turn within the grace period: the turn finishes and is posted, a delivery 1 s after the signal is answered 200 and applied, exit 0", async () => {
    const w = await world();
    const app = await w.start({
      name: "app",
      steps: [{ role: "reviewer", delayMs: 5000, answer: ONE_FINDING }],
      env: { STOP_GRACE: "60s" },
    });
    w.sendWebhooksTo(app);
    const head = await pushAndDeliver(w, "for (i = 0; i <= n; i++)");
    const runId = await waitFor("the run row", () => w.runId(), 30_000);
    await waitFor(
      "the reviewer's turn to start",
      async () => (await w.turns(runId)).find((t) => t.status === "running"),
      60_000,
    );

    const exited = exitOf(app);
    const signalledAt = Date.now();
    app.child.kill("SIGTERM");
    await sleep(1000);
    expect(app.child.exitCode).toBeNull();
    expect((await fetch(app.url("/ready"))).status).toBe(503);
    // Another PR opened meanwhile: the listener still takes it (into the journal, then the database).
    const otherPr = w.fixture.pr + 5000;
    const other = await w.github.deliver("pull_request", w.fixture.prPayload("opened", head, { number: otherPr }));
    expect(other.status_code, other.status).toBe(200);

    const { code, at } = await exited;
    console.log(`SIGTERM within the grace period: exited ${at - signalledAt} ms after the signal, code ${code}`);
    expect(code).toBe(0);
    expect(w.reviewsOf(head)).toHaveLength(1);
    expect(reviewPostedAt(w, head)).toBeGreaterThan(signalledAt);
    expect((await w.turns(runId)).map((t) => t.status)).toEqual(["succeeded"]);
    expect((await w.jobs(runId)).map((j) => j.state)).toEqual(["completed"]);
    // The delivery answered during the stop was applied: its run exists with a job waiting for a worker.
    const otherRun = await w.runId(otherPr);
    expect(otherRun).toBeDefined();
    expect((await w.jobs(otherRun!)).map((j) => j.state)).toEqual(["created"]);
    expect(w.relay.failures).toEqual([]);
  });

  it("SIGTERM past the grace period: the turn is stopped and closed, its job handed back (retry), the process exits; the next start reviews the head", async () => {
    const w = await world();
    const app = await w.start({
      name: "app",
      steps: [{ role: "reviewer", delayMs: FOREVER }],
      env: { STOP_GRACE: "2s" },
    });
    w.sendWebhooksTo(app);
    const head = await pushAndDeliver(w, "for (i = 0; i <= n; i++)");
    const runId = await waitFor("the run row", () => w.runId(), 30_000);
    const stopped = await waitFor(
      "the reviewer's turn to start",
      async () => (await w.turns(runId)).find((t) => t.status === "running"),
      60_000,
    );

    const exited = exitOf(app);
    const signalledAt = Date.now();
    app.child.kill("SIGTERM");
    const { code, at } = await Promise.race([
      exited,
      sleep(30_000).then(() => ({ code: "still running" as const, at: Date.now() })),
    ]);
    console.log(`SIGTERM past the grace period (2 s): exited ${at - signalledAt} ms after the signal, code ${code}`);
    expect(code).toBe(0);
    expect(at - signalledAt).toBeLessThanOrEqual(20_000);
    expect(app.output()).toContain("grace period over: running jobs are stopped and handed back to the queue");

    // Before anything else runs: the turn is closed, the job is back in the queue to run at once.
    // Closed as interrupted (it runs again), not as cancelled.
    expect((await w.turns(runId)).find((t) => t.id === stopped.id)?.status).toBe("interrupted");
    const [job] = await w.sql<
      { state: string; due: boolean }[]
    >`select state, start_after <= now() as due from pgboss.job where name = 'no-mistakes-run' and data->>'runId' = ${String(runId)}`;
    expect(job).toEqual({ state: "retry", due: true });
    expect(w.reviewsOf(head)).toHaveLength(0);
    // The head's check says it will be retried, not that it failed.
    expect([...w.github.checkRuns.values()].filter((c) => c.head_sha === head).map((c) => c.status)).toEqual([
      "queued",
    ]);

    const next = await w.start({ name: "app", steps: [{ role: "reviewer", answer: ONE_FINDING }] });
    w.sendWebhooksTo(next);
    const postedAt = await waitFor("the head's review after the next start", () => reviewPostedAt(w, head), 60_000);
    console.log(
      `SIGTERM past the grace period: the next start reviewed the head ${postedAt - next.spawnedAt} ms after it was spawned`,
    );
    expect(postedAt - next.spawnedAt).toBeLessThanOrEqual(60_000);
    expect(w.reviewsOf(head)).toHaveLength(1);
    await waitFor(
      "the head's check to complete",
      () => [...w.github.checkRuns.values()].find((c) => c.head_sha === head && c.status === "completed"),
      30_000,
    );
    expect(w.relay.failures).toEqual([]);
  });
  it("web + 2 workers: a worker answers webhooks 503, the web process's deliveries are reviewed by the workers; kill -9 the worker in a long turn → the other takes the job within 30 s", async () => {
    const w = await world();
    // One scenario and one agent home for both workers, so the step counts are shared: the first review
    // answers at once, the second call thinks forever, any later call (the takeover) answers at once.
    const scenario = w.writeScenario([
      { role: "reviewer", times: 1, answer: ONE_FINDING },
      { role: "reviewer", times: 1, delayMs: FOREVER },
      { role: "reviewer", answer: { summary: "Nothing more.", findings: [], resolved: [] } },
    ]);
    const agentHome = join(w.fixture.root, "shared-agent-home");
    const workerEnv = { ROLE: "worker", FAKE_AGENT_SCENARIO: scenario, FAKE_AGENT_HOME: agentHome };
    // The web process first: processes that create pg-boss's queues at the same moment on a fresh
    // database can deadlock (one of them then fails to start).
    const oauth = { GITHUB_CLIENT_ID: OAUTH_CLIENT.clientId, GITHUB_CLIENT_SECRET: OAUTH_CLIENT.clientSecret };
    const web = await w.start({ name: "web", env: { ROLE: "web", REDELIVER_INTERVAL: "10s", ...oauth } });
    const workers = await Promise.all([
      w.start({ name: "worker-1", env: { ...workerEnv, REDELIVER_INTERVAL: "10s", ...oauth } }),
      w.start({ name: "worker-2", env: { ...workerEnv, REDELIVER_INTERVAL: "10s", ...oauth } }),
    ]);
    // The run view is the web process's: it asks for sign-in; a worker serves no pages.
    const page = (app: StartedApp) => fetch(new URL("/repos", app.webhookUrl), { redirect: "manual" });
    const asked = await page(web);
    expect(asked.status).toBe(303);
    expect(asked.headers.get("location")).toBe("/login?next=%2Frepos");
    expect((await page(workers[0]!)).status).toBe(404);

    // A delivery misrouted to a worker is refused (GitHub marks it failed; the sweep redelivers it).
    const misrouted = w.fixture.pr + 7000;
    expect(
      await postSignedDelivery(workers[0]!.webhookUrl, WEBHOOK_SECRET, {
        name: "pull_request",
        payload: w.fixture.prPayload("opened", w.fixture.baseSha, { number: misrouted }),
      }),
    ).toBe(503);

    w.sendWebhooksTo(web);
    const first = await pushAndDeliver(w, "for (i = 0; i <= n; i++)");
    await waitFor("the first head's review", () => reviewPostedAt(w, first), 60_000);
    const postedBy = (app: StartedApp, sha: string) =>
      app
        .output()
        .split("\n")
        .some((l) => l.includes('"msg":"review posted"') && l.includes(sha));
    const reviewers = await waitFor(
      "a worker to say it posted the review",
      () => workers.filter((app) => postedBy(app, first)).length > 0 && workers.filter((app) => postedBy(app, first)),
      10_000,
    );
    expect(reviewers).toHaveLength(1);
    expect(web.output()).not.toMatch(/"msg":"(review posted|agent turn finished)"/);
    // Both workers, and only they, are in the heartbeat registry.
    const registered = await w.sql<{ pid: number }[]>`select pid from workers order by pid`;
    expect(registered.map((r) => r.pid)).toEqual(workers.map((app) => app.pid).sort((a, b) => a - b));
    expect(await w.runId(misrouted)).toBeUndefined();

    const second = await pushAndDeliver(w, "for (i = 0; i < n - 1; i++)", first);
    const runId = (await w.runId())!;
    const long = await waitFor(
      "a worker's long turn",
      async () => {
        const [row] = await w.sql<
          { pid: number }[]
        >`select w.pid from worker_jobs j join workers w on w.id = j.worker_id where j.run_id = ${runId}`;
        const turn = (await w.turns(runId)).find((t) => t.status === "running" && t.head_sha === second);
        return row && turn ? { pid: row.pid, turn } : undefined;
      },
      60_000,
    );
    const victim = workers.find((app) => app.pid === long.pid)!;
    const survivor = workers.find((app) => app !== victim)!;
    // The turn row exists before the agent picks its step: kill only once the long step is taken (the
    // fake agent counts uses in its home), or the survivor would be the one to think forever.
    await waitFor(
      "the agent to take the long step",
      () =>
        readdirSync(agentHome).some(
          (f) => f.startsWith("uses-") && JSON.parse(readFileSync(join(agentHome, f), "utf8"))["1"] === 1,
        ),
      30_000,
    );

    await w.kill(victim);
    const killedAt = Date.now();
    await waitFor(
      "the other worker to take the job",
      async () => (await w.turns(runId)).some((t) => t.id > long.turn.id),
      45_000,
    );
    const takeover = Date.now() - killedAt;
    console.log(
      `web + 2 workers: worker pid ${survivor.pid} took the job of killed worker pid ${victim.pid} ${takeover} ms after the kill`,
    );
    expect(takeover).toBeLessThanOrEqual(30_000);

    await waitFor("the second head's review", () => reviewPostedAt(w, second), 60_000);
    await waitFor("the surviving worker to say it posted the review", () => postedBy(survivor, second), 10_000);
    expect(survivor.output()).toContain("worker stopped: its jobs are handed back to the queue");
    const turns = await waitFor(
      "the run's turns to be closed",
      async () => {
        const now = await w.turns(runId);
        return now.every((t) => t.status !== "running") ? now : undefined;
      },
      30_000,
    );
    expect(turns.find((t) => t.id === long.turn.id)?.status).toBe("interrupted");
    expect(w.reviewsOf(first)).toHaveLength(1);
    expect(w.reviewsOf(second)).toHaveLength(1);
    // The failed-delivery sweep is the workers' (one at a time), never the web process's.
    const swept = (app: StartedApp) => app.output().includes('"msg":"failed webhook deliveries swept"');
    await waitFor("a worker's delivery sweep", () => workers.some(swept), 30_000);
    expect(swept(web)).toBe(false);
    expect(w.relay.failures).toEqual([]);
  });
  it("/metrics with METRICS_TOKEN: 401 without it; with it, the accepted delivery and the reviewer's turn are counted", async () => {
    const w = await world();
    const token = "metrics-token-0123456789abcdef";
    const app = await w.start({
      name: "app",
      steps: [{ role: "reviewer", answer: ONE_FINDING }],
      env: { METRICS_TOKEN: token },
    });
    w.sendWebhooksTo(app);
    const scrape = async (authorization?: string) => {
      const res = await fetch(app.url("/metrics"), { headers: authorization ? { authorization } : {} });
      return { status: res.status, text: await res.text() };
    };
    const accepted = (text: string) =>
      sample(text, 'webhook_deliveries_total{event="pull_request",outcome="accepted"}') ?? 0;
    /** Finished reviewer turns, whatever their session mode. */
    const reviewerTurns = (text: string) =>
      text
        .split("\n")
        .filter((l) => l.startsWith('agent_turn_seconds_count{role="reviewer",'))
        .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(" ") + 1)), 0);

    expect((await scrape()).status).toBe(401);
    expect((await scrape("Bearer not-the-metrics-token-at-all")).status).toBe(401);
    const before = await scrape(`Bearer ${token}`);
    expect(before.status).toBe(200);
    expect(accepted(before.text)).toBe(0);
    expect(reviewerTurns(before.text)).toBe(0);

    const head = await pushAndDeliver(w, "for (i = 0; i <= n; i++)");
    await waitFor("the head's review", () => reviewPostedAt(w, head), 60_000);
    const after = await scrape(`Bearer ${token}`);
    expect(after.status).toBe(200);
    expect(accepted(after.text)).toBe(1);
    expect(reviewerTurns(after.text)).toBe(1);
    expect(after.text).toMatch(/^agent_turn_seconds_count\{role="reviewer",mode="started"\} 1$/m);
    expect(w.relay.failures).toEqual([]);
  });
});
