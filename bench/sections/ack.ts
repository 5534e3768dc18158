/**
 * 1. Webhook ack latency: open-loop signed `pull_request.synchronize` deliveries against the app
 * (startServer, real PostgreSQL) and a bare Probot app, in alternating blocks; then the database is
 * checked: every delivery recorded once, every run at its newest head with a job that will review it.
 */
import { randomUUID, createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { join } from "node:path";
import postgres from "postgres";
import { GitHubHttpStandIn } from "../lib/github-server.js";
import { buildRepo } from "../lib/repo.js";
import {
  ROOT, SMOKE, WEBHOOK_SECRET, createDatabase, emitResult, freePort, percentile, privateKey, pullRequestPayload, round, signature, sleep, startChild, tempRoot,
} from "../lib/common.js";

const cfg = SMOKE
  ? { rate: 20, seconds: 2, warmSeconds: 0.5, prs: 5, blockMs: 500 }
  : { rate: 100, seconds: Number(process.env.BENCH_ACK_SECONDS ?? 30), warmSeconds: 3, prs: 50, blockMs: 1000 };
const PROFILE = process.env.BENCH_PROFILE === "1";

const root = tempRoot("ack");
const db = await createDatabase();
const gh = new GitHubHttpStandIn();
await gh.start();
const repo = buildRepo(root, 5, Array.from({ length: cfg.prs }, (_, i) => ({ number: i + 1, changedFiles: 1, laterPushes: 0 })));
const scenario = join(root, "scenario.json");
// Workers stay up but sit in one long agent turn each, so the ack figure is the webhook path alone.
writeFileSync(scenario, JSON.stringify({ steps: [{ role: "reviewer", delayMs: 3_000_000, answer: { summary: "ok", findings: [], resolved: [] } }] }));

const common = {
  APP_ID: "1",
  PRIVATE_KEY: privateKey(),
  WEBHOOK_SECRET,
  AGENT: "fake", // readEnvConfig validates the agent even where none runs
  HOST: "127.0.0.1",
  LOG_LEVEL: "info",
  GHE_HOST: gh.host,
  GHE_PROTOCOL: "http",
};
// One folder per server and Node's own file names: tsx's loader thread writes a profile too, and a fixed name let it overwrite the main thread's.
const profArgs = (name: string) => [...(PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${join(ROOT, "bench/results/profiles", name)}`] : []), ...(process.env.BENCH_TRACE_GC === "1" ? ["--trace-gc"] : [])];
const app = await startChild(
  "bench/servers/app-server.ts",
  {
    ...common,
    PORT: String(await freePort()),
    DATABASE_URL: db.url,
    DATA_DIR: process.env.BENCH_APP_DATA ?? join(root, "app-data"),
    AGENT: "fake",
    AGENT_TIMEOUT: "1h",
    FAKE_AGENT_SCENARIO: scenario,
    FAKE_AGENT_LOG: join(root, "agent.log"),
  },
  join(root, "app.log"),
  profArgs("ack-app"),
);
const bare = await startChild("bench/servers/bare-server.ts", { ...common, PORT: String(await freePort()) }, join(root, "bare.log"), profArgs("ack-bare"));

type Target = "app" | "bare";
const ports: Record<Target, number> = { app: app.port, bare: bare.port };
const agent = new Agent({ keepAlive: true, maxSockets: 512 });
const lat: Record<Target, number[]> = { app: [], bare: [] };
/** [scheduled ms since start, latency ms] of every measured request, to see when the slow ones happen. */
const samples: Record<Target, [number, number][]> = { app: [], bare: [] };
const non2xx: Record<Target, number> = { app: 0, bare: 0 };
const errors: Record<Target, number> = { app: 0, bare: 0 };
const sent: Record<Target, number> = { app: 0, bare: 0 };
const counter: Record<Target, number> = { app: 0, bare: 0 };
const appDeliveries: string[] = [];
/** When each app delivery was answered (wall clock, to compare with the row's received_at). */
const answeredAt = new Map<string, number>();
const lastHead = new Map<number, string>();
let maxLagMs = 0;

function send(target: Target, scheduledAt: number, measured: boolean): Promise<void> {
  const k = counter[target]++;
  const pr = (k % cfg.prs) + 1;
  const headSha = createHash("sha1").update(`${target}-${k}`).digest("hex");
  const id = randomUUID();
  const body = JSON.stringify(pullRequestPayload({ action: "synchronize", number: pr, baseSha: repo.baseSha, headSha, cloneUrl: repo.bare }));
  if (target === "app") {
    appDeliveries.push(id);
    lastHead.set(pr, headSha);
  }
  sent[target]++;
  const lag = performance.now() - scheduledAt;
  if (lag > maxLagMs) maxLagMs = lag;
  return new Promise<void>((resolve) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: ports[target],
        path: "/api/github/webhooks",
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "user-agent": "GitHub-Hookshot/bench",
          "x-github-event": "pull_request",
          "x-github-delivery": id,
          "x-github-hook-id": "1",
          "x-hub-signature-256": signature(body),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => {
          const ms = performance.now() - scheduledAt; // from the scheduled time: no coordinated omission
          if (measured) lat[target].push(ms);
          if (measured) samples[target].push([Math.round(scheduledAt), Math.round(ms * 100) / 100]);
          if (target === "app") answeredAt.set(id, Date.now());
          if (res.statusCode! < 200 || res.statusCode! >= 300) non2xx[target]++;
          resolve();
        });
      },
    );
    req.on("error", () => {
      errors[target]++;
      resolve();
    });
    req.end(body);
  });
}

/** Blocks alternate A B B A A B …, each `blockMs` long at `rate`/s; the first `warmSeconds` per server are not measured. */
async function load(): Promise<void> {
  const perBlock = Math.round((cfg.rate * cfg.blockMs) / 1000);
  const warmBlocks = Math.ceil((cfg.warmSeconds * 1000) / cfg.blockMs);
  const blocks = 2 * (warmBlocks + Math.ceil((cfg.seconds * 1000) / cfg.blockMs));
  const pending: Promise<void>[] = [];
  const t0 = performance.now() + 50;
  const interval = 1000 / cfg.rate;
  for (let b = 0; b < blocks; b++) {
    const pair = Math.floor(b / 2);
    const target: Target = (b % 2 === 0) === (pair % 2 === 0) ? "app" : "bare";
    const measured = b >= 2 * warmBlocks;
    for (let i = 0; i < perBlock; i++) {
      const at = t0 + b * cfg.blockMs + i * interval;
      const wait = at - performance.now();
      if (wait > 1) await sleep(wait - 0.5);
      while (performance.now() < at) { /* sub-ms spin */ }
      pending.push(send(target, at, measured));
    }
  }
  await Promise.all(pending);
}

// The workers take their first jobs before anything is measured: they prepare those workspaces (git
// processes, GitHub calls) and then sit in the long fake turn, so what follows is the webhook path alone.
{
  const sql = postgres(db.url, { max: 1, onnotice: () => {} });
  await Promise.all([send("app", performance.now(), false), send("app", performance.now(), false)]);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from turns`;
    if (row!.n >= 2) break;
    await sleep(100);
  }
  await sql.end();
  await sleep(500);
}

const started = Date.now();
await load();
const loadSeconds = (Date.now() - started) / 1000;

// Database checks, once the app has applied what it answered (it writes right after the answer).
const sql = postgres(db.url, { max: 2, onnotice: () => {} });
const applyDeadline = Date.now() + 60_000;
while (Date.now() < applyDeadline) {
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from webhook_deliveries`;
  if (row!.n >= appDeliveries.length) break;
  await sleep(200);
}
await sleep(500); // any write that should not happen (a duplicate) gets its chance to show
const recorded = await sql<{ delivery_id: string; received_at: Date }[]>`select delivery_id, received_at from webhook_deliveries`;
// From GitHub's answer to the committed row: how long an acknowledged delivery lives only in the journal.
const applyLag = recorded
  .map((r) => r.received_at.getTime() - (answeredAt.get(r.delivery_id) ?? NaN))
  .filter((ms) => Number.isFinite(ms))
  .sort((a, b) => a - b);
const recordedSet = new Set(recorded.map((r) => r.delivery_id));
const missingDeliveries = appDeliveries.filter((d) => !recordedSet.has(d)).length;
const extraDeliveries = recorded.length - appDeliveries.length;
const runs = await sql<{ id: number; pr_number: number; head_sha: string; updated_at: Date }[]>`select id, pr_number, head_sha, updated_at from runs`;
const staleHeads = runs.filter((r) => lastHead.get(r.pr_number) !== r.head_sha).length;
const jobs = await sql<{ state: string; singleton_key: string; delivery: string; started_on: Date | null }[]>`
  select state, singleton_key, data->>'deliveryId' as delivery, started_on from pgboss.job where name = 'no-mistakes-run'`;
const jobDeliveries = jobs.map((j) => j.delivery);
const duplicateJobDeliveries = jobDeliveries.length - new Set(jobDeliveries).size;
const strayJobDeliveries = jobDeliveries.filter((d) => !appDeliveries.includes(d)).length;
let uncovered = 0;
let overWaiting = 0;
for (const run of runs) {
  const mine = jobs.filter((j) => j.singleton_key === String(run.id));
  const waiting = mine.filter((j) => j.state === "created" || j.state === "retry");
  const active = mine.filter((j) => j.state === "active");
  if (waiting.length > 1 || active.length > 1) overWaiting++;
  // The newest head is covered when a job is still waiting (it reads the run's head when it starts)
  // or the active one started after the run's last update.
  if (waiting.length === 0 && !active.some((j) => j.started_on && j.started_on >= run.updated_at)) uncovered++;
}
await sql.end();

// The app's own log: every delivery either queued a job or joined the run's waiting one, exactly once.
const outcomes = new Map<string, number>();
for (const line of readFileSync(app.logPath, "utf8").split("\n")) {
  if (!line.includes("review queued") && !line.includes("review already waiting")) continue;
  try {
    const entry = JSON.parse(line) as { deliveryId?: string };
    if (entry.deliveryId) outcomes.set(entry.deliveryId, (outcomes.get(entry.deliveryId) ?? 0) + 1);
  } catch { /* not JSON */ }
}
const notExactlyOnce = appDeliveries.filter((d) => outcomes.get(d) !== 1).length;
// The app's own word that nothing it answered is still waiting to be applied.
const health = (await (await fetch(`http://127.0.0.1:${app.port}/health`)).json()) as { intake?: { backlog: number } };
const intakeBacklog = health.intake?.backlog ?? NaN;
const queuedJobs = jobs.length;

await app.kill();
await bare.kill();
await gh.stop();
await db.drop();

const sorted = (a: number[]) => [...a].sort((x, y) => x - y);
const appS = sorted(lat.app);
const bareS = sorted(lat.bare);
emitResult({
  section: "ack",
  config: cfg,
  loadSeconds: round(loadSeconds),
  maxSchedulerLagMs: round(maxLagMs),
  app: { sent: sent.app, measured: appS.length, p50: round(percentile(appS, 50)), p90: round(percentile(appS, 90)), p99: round(percentile(appS, 99)), max: round(appS.at(-1) ?? NaN), non2xx: non2xx.app, errors: errors.app },
  bare: { sent: sent.bare, measured: bareS.length, p50: round(percentile(bareS, 50)), p90: round(percentile(bareS, 90)), p99: round(percentile(bareS, 99)), max: round(bareS.at(-1) ?? NaN), non2xx: non2xx.bare, errors: errors.bare },
  p99Ratio: round(percentile(appS, 99) / percentile(bareS, 99), 3),
  applyLagMs: { p50: round(percentile(applyLag, 50)), p99: round(percentile(applyLag, 99)), max: round(applyLag.at(-1) ?? NaN) },
  intakeBacklog,
  db: { deliveriesSent: appDeliveries.length, deliveriesRecorded: recorded.length, missingDeliveries, extraDeliveries, runs: runs.length, staleHeads, jobs: queuedJobs, duplicateJobDeliveries, strayJobDeliveries, runsWithMoreThanOneWaitingOrActive: overWaiting, runsWhoseNewestHeadIsNotCovered: uncovered, deliveriesNotQueuedOrCollapsedExactlyOnce: notExactlyOnce },
  logs: { app: app.logPath, bare: bare.logPath },
  /** Add to a `slowest` time to get the wall clock (ms since the epoch), to line it up with the servers' logs. */
  timeOrigin: Math.round(performance.timeOrigin),
  slowest: Object.fromEntries((["app", "bare"] as const).map((t) => [t, [...samples[t]].sort((a, b) => b[1] - a[1]).slice(0, 40)])),
});
process.exit(0);
