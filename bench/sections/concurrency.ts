/**
 * 4. Concurrency: several app processes (startServer, workers on) on one PostgreSQL, a burst of
 * pushes to many PRs (real signed webhooks, spread over the processes), the fake agent thinking a
 * little. Then: no two turns of one run overlapped, every PR's newest head reviewed exactly once.
 */
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { Agent } from "node:http";
import { join } from "node:path";
import postgres from "postgres";
import { GitHubHttpStandIn } from "../lib/github-server.js";
import { postWebhook } from "../lib/post-webhook.js";
import { buildRepo, movePullHeads } from "../lib/repo.js";
import {
  appEnv,
  type ChildServer,
  createDatabase,
  emitResult,
  freePort,
  pullRequestPayload,
  round,
  sleep,
  SMOKE,
  startChild,
  tempRoot,
} from "../lib/common.js";

const cfg = SMOKE
  ? { processes: 2, prs: 6, pushes: 2, delayMs: 20, rate: 20, timeoutS: 120 }
  : { processes: 4, prs: 200, pushes: 5, delayMs: 100, rate: 200, timeoutS: 900 };

const root = tempRoot("concurrency");
const db = await createDatabase();
const gh = new GitHubHttpStandIn();
await gh.start();
const repo = buildRepo(
  root,
  50,
  Array.from({ length: cfg.prs }, (_, i) => ({ number: i + 1, changedFiles: 3, laterPushes: cfg.pushes - 1 })),
);
const scenario = join(root, "scenario.json");
writeFileSync(
  scenario,
  JSON.stringify({
    steps: [
      { role: "reviewer", delayMs: cfg.delayMs, answer: { summary: "Nothing to report.", findings: [], resolved: [] } },
    ],
  }),
);

const procs: ChildServer[] = [];
for (let i = 0; i < cfg.processes; i++) {
  procs.push(
    await startChild(
      "bench/servers/app-server.ts",
      {
        ...appEnv(gh.host),
        PORT: String(await freePort()),
        DATABASE_URL: db.url,
        DATA_DIR: join(root, `app-${i}`),
        FAKE_AGENT_SCENARIO: scenario,
        FAKE_AGENT_HOME: join(root, "fake-agent"),
        FAKE_AGENT_LOG: join(root, "agent.log"),
        ...(process.env.BENCH_GITHUB_PACING ? { BENCH_GITHUB_PACING: process.env.BENCH_GITHUB_PACING } : {}),
      },
      join(root, `app-${i}.log`),
    ),
  );
}

const agent = new Agent({ keepAlive: true, maxSockets: 256 });
let non2xx = 0;
let errors = 0;
/** One signed `pull_request` delivery; counts a failed request and a non-2xx answer. */
async function deliver(port: number, body: string): Promise<void> {
  const status = await postWebhook(port, agent, "pull_request", randomUUID(), body);
  if (status === 0) errors++;
  else if (status < 200 || status >= 300) non2xx++;
}

// Warm each process once (a \`closed\` delivery for a PR it never saw: verified, recorded, nothing queued),
// so a cold first request does not overtake nothing.
await Promise.all(
  procs.map((p, j) =>
    deliver(
      p.port,
      JSON.stringify(
        pullRequestPayload({
          action: "closed",
          number: 100_000 + j,
          baseSha: repo.baseSha,
          headSha: repo.baseSha,
          cloneUrl: repo.bare,
        }),
      ),
    ),
  ),
);

const sql = postgres(db.url, { max: 2, onnotice: () => {} });
const t0 = performance.now();
const pending: Promise<void>[] = [];
let i = 0;
for (let k = 0; k < cfg.pushes; k++) {
  // Push k of every PR: the branch moves, then GitHub delivers (open loop, at `rate`).
  movePullHeads(
    repo.bare,
    [...repo.heads].map(([n, shas]) => [n, shas[k]!]),
  );
  for (const [n, shas] of repo.heads) {
    const at = t0 + (i * 1000) / cfg.rate;
    const wait = at - performance.now();
    if (wait > 0) await sleep(wait);
    const action = k === 0 ? "opened" : "synchronize";
    const body = JSON.stringify(
      pullRequestPayload({
        action,
        number: n,
        baseSha: repo.baseSha,
        headSha: shas[k]!,
        before: k > 0 ? shas[k - 1] : undefined,
        cloneUrl: repo.bare,
      }),
    );
    pending.push(deliver(procs[(n + k) % procs.length]!.port, body));
    i++;
  }
}
await Promise.all(pending);
const burstSeconds = (performance.now() - t0) / 1000;

// Idle: no run job waiting, retrying or active, twice in a row.
let idleFor = 0;
let timedOut = false;
while (idleFor < 2) {
  const n =
    (
      await sql<
        { n: number }[]
      >`select count(*)::int as n from pgboss.job where name = 'no-mistakes-run' and state in ('created', 'retry', 'active')`
    )[0]?.n ?? 0;
  idleFor = n === 0 ? idleFor + 1 : 0;
  if ((performance.now() - t0) / 1000 > cfg.timeoutS) {
    timedOut = true;
    break;
  }
  await sleep(n === 0 ? 500 : 250);
}
const totalSeconds = (performance.now() - t0) / 1000 - (timedOut ? 0 : 0.5);

const overlaps = await sql<{ n: number }[]>`
  select count(*)::int as n from turns a join turns b on a.run_id = b.run_id and a.id < b.id
  where a.started_at < coalesce(b.finished_at, now()) and b.started_at < coalesce(a.finished_at, now())`;
const runs = await sql<
  { id: number; pr_number: number; head_sha: string; last_reviewed_sha: string | null }[]
>`select id, pr_number, head_sha, last_reviewed_sha from runs`;
const turns = await sql<
  { run_id: number; head_sha: string; status: string; trigger: string; role: string }[]
>`select run_id, head_sha, status, trigger, role from turns`;
const jobStates = await sql<
  { state: string; n: number }[]
>`select state, count(*)::int as n from pgboss.job where name = 'no-mistakes-run' group by state`;
await sql.end();

let notNewest = 0;
const problemRuns: unknown[] = [];
let newestNotOnce = 0;
for (const pr of [...repo.heads.keys()]) {
  const newest = repo.heads.get(pr)!.at(-1)!;
  const run = runs.find((r) => r.pr_number === pr);
  if (!run || run.last_reviewed_sha !== newest || run.head_sha !== newest) notNewest++;
  const atNewest = turns.filter(
    (t) => run && t.run_id === run.id && t.role === "reviewer" && t.head_sha === newest && t.status === "succeeded",
  ).length;
  if (atNewest !== 1) newestNotOnce++;
  if ((atNewest !== 1 || run?.last_reviewed_sha !== newest) && problemRuns.length < 5) {
    problemRuns.push({
      pr,
      runId: run?.id,
      newest,
      head: run?.head_sha,
      lastReviewed: run?.last_reviewed_sha,
      turns: turns.filter((t) => t.run_id === run?.id),
    });
  }
}
const reviewerTurns = turns.filter((t) => t.role === "reviewer" && t.status === "succeeded").length;
const failedTurns = turns.filter((t) => t.status !== "succeeded").length;

await Promise.all(procs.map((p) => p.kill()));
await gh.stop();
await db.drop();

emitResult({
  section: "concurrency",
  config: cfg,
  pushes: i,
  burstSeconds: round(burstSeconds),
  totalSeconds: round(totalSeconds),
  timedOut,
  webhookNon2xx: non2xx,
  webhookErrors: errors,
  overlappingTurnPairs: overlaps[0]!.n,
  runs: runs.length,
  runsNotAtNewestHead: notNewest,
  runsWhoseNewestHeadWasNotReviewedExactlyOnce: newestNotOnce,
  reviewerTurns,
  failedTurns,
  reviewsPerSecond: round(reviewerTurns / totalSeconds, 2),
  pushesPerSecondAbsorbed: round(i / totalSeconds, 2),
  jobStates: Object.fromEntries(jobStates.map((j) => [j.state, j.n])),
  reviewsPosted: gh.reviews.length,
  problemRuns,
  unmatchedGitHubRequests: gh.unmatched.slice(0, 10),
  logs: root,
});
process.exit(0);
