/**
 * 10. The run view's pages as a signed-in person gets them from the app as `npm start` runs it, on the
 * embedded database (no DATABASE_URL: DATA_DIR/pglite in its own process) and on PostgreSQL. The app's
 * database is seeded first (directly, as the pipeline would have written it): a PR with 500 findings
 * (2–3 events each), 300 turns, its sessions and 20 commands; a repository with 2,000 PRs (2 turns and
 * 5 findings each: 10,000 findings, with their outcomes, raised over the scorecard's 12 weeks, which its page
 * shows); a small PR (5 findings, 3 turns) and a small repository (10 PRs) as baselines. Then
 * the app (startServer with readEnvConfig, workers in their own process, the fake agent) is started on it
 * with the run view's sign-in configured against the bench's GitHub server (GitHub Enterprise layout:
 * GHE_HOST, GHE_PROTOCOL=http, the OAuth web flow there too), a person signs in through the real flow
 * (/login → GitHub's authorize → /oauth/callback), and signed `pull_request.synchronize` deliveries keep
 * arriving (each naming its PR's next real commit) so the workers fetch, diff, review and post the whole
 * time. The pages are requested over HTTP with the session cookie, one after another in rounds of every
 * page (the big pages and their baselines under the same load), the rounds spread over the window (60
 * rounds in 45 s; smoke: 5 in 4 s) as a person's clicks are; each figure is the p95 of the router's own
 * `server-timing: app;dur=` (queries + render, the person's access check included) after a warm-up, with
 * the client's wall time beside it (this process also runs the GitHub server and sends the deliveries).
 * Reviews posted during the window are counted. Then, for comparison only, the deliveries stop and, once
 * the workers are idle, the pages are measured again (not judged: the standard measures under load).
 */
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { Agent } from "node:http";
import { loadavg } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { DatabaseHandle } from "../../src/db/database.js";
import { findings, turns } from "../../src/db/schema.js";
import { migrateDatabase } from "../../src/db/migrate-database.js";
import { openDatabase } from "../../src/db/open-database.js";
import {
  seedCommands,
  seedEvents,
  seedFindings,
  seedRuns,
  seedSession,
  seedTurns,
  type SeedEvent,
  type SeedRun,
  type SeedTurn,
} from "../../test/helpers/run-view-seed.js";
import { GitHubOAuthRoutes } from "../lib/github-oauth-routes.js";
import { GitHubHttpStandIn } from "../lib/github-server.js";
import { postWebhook } from "../lib/post-webhook.js";
import { buildRepo, PullHeadMover } from "../lib/repo.js";
import { signIn } from "../lib/sign-in.js";
import {
  appEnv,
  createDatabase,
  emitResult,
  freePort,
  INSTALLATION_ID,
  percentile,
  pullRequestPayload,
  REPO_ID,
  round,
  sleep,
  SMOKE,
  startChild,
  tempRoot,
} from "../lib/common.js";
import { REVIEWER_ANSWER } from "../lib/reviewer-answer.js";

const cfg = SMOKE
  ? {
      findings: 50,
      turns: 30,
      prs: 200,
      iterations: 5,
      seconds: 4,
      idleIterations: 5,
      loadPrs: 4,
      deliveriesPerSecond: 4,
      commitsPerPr: 10,
    }
  : {
      findings: 500,
      turns: 300,
      prs: 2000,
      iterations: 60,
      seconds: 45,
      idleIterations: 30,
      loadPrs: 20,
      deliveriesPerSecond: 10,
      commitsPerPr: 40,
    };
const SMALL = { findings: 5, turns: 3, prs: 10 };
// The repository page carries its scorecard over all its findings: 100 ms with 10,000 of them.
const TARGET_MS = { runView: 100, repositoryPage: 100 };
const FINDINGS_PER_PR = 5;
const DAY_MS = 86_400_000;
const WARM_UP = 3;

/** The person who signs in: an admin (WEB_ADMINS), so the operator page is theirs too. */
const PERSON = { id: 7001, login: "alice" };
const OAUTH_CLIENT = { clientId: "Iv1.benchclient0001", clientSecret: "bench-client-secret-0123456789abcdef" };

const BIG_PR_REPO = { id: 1, name: "octo/large-pr" };
const MANY_PRS_REPO = { id: 2, name: "octo/many-prs" };
const FEW_PRS_REPO = { id: 3, name: "octo/few-prs" };
const STATUSES = ["open", "open", "fix-pushed", "fixed", "dismissed", "withdrawn", "note"];
const SEVERITIES = ["error", "warning", "info"];
const AUTHORS = ["alice", "bob", "carol", "dave", "erin"];
const start = Date.UTC(2026, 9, 1);
const STANDARD_TURN = {
  role: "reviewer",
  trigger: "synchronize",
  headSha: "a".repeat(40),
  agent: "claude",
  model: "claude-opus-4-8",
  status: "succeeded",
};
const minutes = (n: number) => new Date(start + n * 60_000);

function turnsOf(count: number, offset: number): SeedTurn[] {
  return Array.from({ length: count }, (_, i) => ({
    role: i % 5 === 4 ? "fixer" : "reviewer",
    trigger: i === 0 ? "opened" : "synchronize",
    sessionMode: i === 0 ? "started" : "resumed",
    sessionId: i % 5 === 4 ? "fixer-session" : "reviewer-session",
    startedAt: minutes(offset + i * 10),
    finishedAt: minutes(offset + i * 10 + 3),
    tokensIn: 20_000 + i,
    tokensOut: 800,
    cacheReadTokens: 18_000,
    cacheWriteTokens: 1_500,
    contextTokens: 20_000 + i,
    costUsd: 0.031 + i / 1e5,
  }));
}

function findingsOf(count: number, turnIds: number[]): Omit<typeof findings.$inferInsert, "runId">[] {
  return Array.from({ length: count }, (_, i) => ({
    number: i + 1,
    fingerprint: `fp-${i + 1}`,
    action: "auto-fix",
    path: "src/app.ts",
    severity: SEVERITIES[i % 3]!,
    status: STATUSES[i % STATUSES.length]!,
    title: `Finding ${i + 1}: the bound is off by one`,
    body: `The loop in step ${i + 1} reads one element past the end when the input is empty. `.repeat(4),
    line: 10 + i,
    commentId: 10_000 + i,
    reviewId: 500,
    introducedTurnId: turnIds.length ? turnIds[i % turnIds.length]! : null,
  }));
}

function eventsOf(count: number, turnIds: number[]): SeedEvent[] {
  const events: SeedEvent[] = [];
  for (let n = 1; n <= count; n++) {
    const turnId = turnIds[n % turnIds.length]!;
    events.push({ findingNumber: n, kind: "raised", actor: "reviewer", turnId });
    events.push({ findingNumber: n, kind: "posted", actor: "reviewer", turnId });
    if (n % 2 === 0)
      events.push({
        findingNumber: n,
        kind: "dismissed",
        actor: "alice",
        detail: "intended: the input is never empty",
      });
  }
  return events;
}

/** A PR's run with its turns, sessions, findings, events and commands. */
async function seedPullRequest(
  handle: DatabaseHandle,
  repo: { id: number; name: string },
  prNumber: number,
  size: { findings: number; turns: number },
  commands: number,
) {
  const db = handle.db;
  const [runId] = await seedRuns(db, [
    { repositoryId: repo.id, fullName: repo.name, prNumber, author: "alice", updatedAt: minutes(size.turns * 10) },
  ]);
  const turnIds = await seedTurns(db, runId!, turnsOf(size.turns, 0));
  await seedSession(db, {
    runId: runId!,
    role: "reviewer",
    sessionId: "reviewer-session",
    contextTokens: 40_000,
    overheadTokens: 9_000,
  });
  await seedSession(db, {
    runId: runId!,
    role: "fixer",
    sessionId: "fixer-session",
    contextTokens: 30_000,
    overheadTokens: 9_000,
  });
  await seedFindings(db, runId!, findingsOf(size.findings, turnIds));
  await seedEvents(db, runId!, eventsOf(size.findings, turnIds));
  await seedCommands(
    db,
    runId!,
    Array.from({ length: commands }, (_, i) => ({
      commentId: prNumber * 1000 + i,
      author: "alice",
      status: "done",
      command: { kind: i % 2 ? "fix" : "review" },
    })),
  );
}

/**
 * A repository of `prs` PRs, each with 2 turns and FINDINGS_PER_PR findings (raised by the first, over the
 * last 70 days, each with the outcome its status and its PR's state give it); the PRs' activity spread over time.
 */
async function seedRepository(handle: DatabaseHandle, repo: { id: number; name: string }, prs: number) {
  const db = handle.db;
  const rows: SeedRun[] = Array.from({ length: prs }, (_, i) => ({
    repositoryId: repo.id,
    fullName: repo.name,
    prNumber: i + 1,
    author: AUTHORS[i % AUTHORS.length]!,
    state: i % 4 === 0 ? "closed" : "open",
    updatedAt: minutes(i * 7),
  }));
  const runIds = await seedRuns(db, rows);
  // turns and findings of many runs in few statements
  const turnRows = runIds.flatMap((runId, i) => turnsOf(2, i * 7).map((t) => ({ ...STANDARD_TURN, ...t, runId })));
  const firstTurn = new Map<number, number>();
  for (let i = 0; i < turnRows.length; i += 1000)
    for (const t of await db
      .insert(turns)
      .values(turnRows.slice(i, i + 1000))
      .returning({ id: turns.id, runId: turns.runId }))
      if (!firstTurn.has(t.runId)) firstTurn.set(t.runId, t.id);
  const now = Date.now();
  const findingRows = runIds.flatMap((runId, i) =>
    findingsOf(FINDINGS_PER_PR, [firstTurn.get(runId)!]).map((f) => {
      const createdAt = new Date(now - ((i * FINDINGS_PER_PR + f.number) % 70) * DAY_MS);
      const decided = ["fixed", "dismissed", "withdrawn"].includes(f.status!);
      const outcome = decided ? f.status! : i % 4 === 0 && f.status !== "note" ? "abandoned" : null;
      return { ...f, runId, createdAt, outcome, outcomeAt: outcome ? new Date(createdAt.getTime() + 3_600_000) : null };
    }),
  );
  for (let i = 0; i < findingRows.length; i += 1000) await db.insert(findings).values(findingRows.slice(i, i + 1000));
}

async function seed(handle: DatabaseHandle): Promise<number> {
  const seedStarted = performance.now();
  await seedPullRequest(handle, BIG_PR_REPO, 1, cfg, 20);
  await seedPullRequest(handle, BIG_PR_REPO, 2, SMALL, 2);
  await seedRepository(handle, MANY_PRS_REPO, cfg.prs);
  await seedRepository(handle, FEW_PRS_REPO, SMALL.prs);
  await handle.executeSql("analyze");
  return round(performance.now() - seedStarted, 0);
}

const PAGES = {
  runView: `/repos/${BIG_PR_REPO.name}/pull/1`,
  runViewBaseline: `/repos/${BIG_PR_REPO.name}/pull/2`,
  repositoryPage: `/repos/${MANY_PRS_REPO.name}?state=all`,
  repositoryPageBaseline: `/repos/${FEW_PRS_REPO.name}?state=all`,
  repositoryPageFiltered: `/repos/${MANY_PRS_REPO.name}?state=open&author=Carol&page=5`,
  homePage: "/repos",
  operatorPage: "/operator",
} as const;
type Page = keyof typeof PAGES;

interface Sample {
  server: number;
  wall: number;
}

const summary = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return { p50: round(percentile(s, 50)), p95: round(percentile(s, 95)), max: round(s.at(-1) ?? NaN) };
};

type Kind = "embedded" | "postgres";
type Get = (path: string) => Promise<{ text: string; sample: Sample }>;

async function measure(kind: Kind) {
  const root = tempRoot(`web-${kind}`);
  const dataDir = join(root, "app-data");
  const pg = kind === "postgres" ? await createDatabase() : undefined;
  const seedMs = await seedAppDatabase(pg, dataDir);
  const gh = await startGitHub();
  const repo = buildRepo(
    root,
    5,
    Array.from({ length: cfg.loadPrs }, (_, i) => ({
      number: i + 1,
      changedFiles: 1,
      laterPushes: cfg.commitsPerPr - 1,
    })),
  );
  const app = await startApp(gh, root, dataDir, pg);
  const origin = `http://127.0.0.1:${app.port}`;
  const load = startDeliveries(app.port, repo);

  // Sign in as a person does, and wait for the workers' first reviews (warm: token, workspaces, JIT).
  const session = await signIn(origin);
  await untilReviewsPosted(gh, 2, `${kind}: no review posted within 120 s of the first deliveries; see ${app.logPath}`);
  const get = pageGetter(kind, origin, session.cookie);
  const checks = await checkPages(get);
  const loaded = await measureUnderLoad(gh, load, get);

  // For comparison only: the same pages once the deliveries stop and the workers have gone idle (no
  // review posted for 3 s), unpaced. What the load itself adds; not what the targets are judged on.
  await load.stop();
  await untilQuiet(gh);
  const idle = await pass(get, cfg.idleIterations, 0);
  const reviewsDuringIdle = gh.reviews.filter((r) => r.at >= idle.from && r.at <= idle.to).length;
  writeFileSync(join(root, "samples.json"), JSON.stringify({ loaded: loaded.samples, idle: idle.samples }));

  const stoppedCleanly = await app.kill(120_000);
  load.agent.destroy();
  const turnRows = await readLoadTurns(pg, dataDir);
  await gh.stop();
  await pg?.drop();
  const { idle: idleFigures, ...figures } = figuresOf(loaded.samples, idle.samples);
  return {
    database: kind,
    seedMs,
    checks,
    ...figures,
    load: {
      ...loaded.figures,
      reviewsPosted: gh.reviews.length,
      deliveries: load.deliveries,
      turns: Object.fromEntries(turnRows.map((t) => [t.status, Number(t.n)])),
    },
    /** The same pages with the workers idle (deliveries stopped), unpaced: for comparison, not judged. */
    idle: { reviewsDuring: reviewsDuringIdle, ...idleFigures },
    signIn: { ...session.steps, github: Object.fromEntries(gh.oauth!.counts) },
    unmatchedGitHubRequests: gh.unmatched.length,
    unmatchedSample: [...new Set(gh.unmatched)].slice(0, 10),
    stoppedCleanly,
    log: app.logPath,
  };
}

/** The app's database, seeded before the app opens it (the embedded one serves one process at a time). */
async function seedAppDatabase(pg: { url: string } | undefined, dataDir: string): Promise<number> {
  const seeding = await openDatabase(pg ? { databaseUrl: pg.url } : { pgliteDir: join(dataDir, "pglite") });
  await migrateDatabase(seeding);
  const seedMs = await seed(seeding);
  await seeding.close();
  return seedMs;
}

/** The bench's GitHub, with the OAuth web flow for PERSON, who reaches every seeded repository. */
async function startGitHub(): Promise<GitHubHttpStandIn> {
  const gh = new GitHubHttpStandIn();
  gh.oauth = new GitHubOAuthRoutes(
    OAUTH_CLIENT,
    {
      ...PERSON,
      installations: [
        { id: INSTALLATION_ID, repositories: [BIG_PR_REPO.id, MANY_PRS_REPO.id, FEW_PRS_REPO.id, REPO_ID] },
      ],
    },
    () => gh.webOrigin,
  );
  await gh.start();
  return gh;
}

/** The app as `npm start` runs it, on the seeded database, with the fake agent and the run view's sign-in. */
async function startApp(gh: GitHubHttpStandIn, root: string, dataDir: string, pg: { url: string } | undefined) {
  const scenario = join(root, "scenario.json");
  writeFileSync(scenario, JSON.stringify({ steps: [{ role: "reviewer", answer: REVIEWER_ANSWER }] }));
  return startChild(
    "bench/servers/app-server.ts",
    {
      ...appEnv(gh.host),
      PORT: String(await freePort()),
      ...(pg ? { DATABASE_URL: pg.url } : {}),
      DATA_DIR: dataDir,
      FAKE_AGENT_SCENARIO: scenario,
      STOP_GRACE: "60s",
      GITHUB_CLIENT_ID: OAUTH_CLIENT.clientId,
      GITHUB_CLIENT_SECRET: OAUTH_CLIENT.clientSecret,
      WEB_ADMINS: String(PERSON.id),
    },
    join(root, "app.log"),
  );
}

/**
 * Deliveries all through: the k-th names PR (k mod loadPrs)+1 at that PR's next commit (its
 * refs/pull/<n>/head moved there first), on a fixed schedule whatever the app's answers take.
 */
function startDeliveries(port: number, repo: ReturnType<typeof buildRepo>) {
  const agent = new Agent({ keepAlive: true, maxSockets: 64, timeout: 4_000 });
  const mover = new PullHeadMover(repo.bare);
  const deliveries = { sent: 0, ok: 0, failed: 0 };
  const inFlight = new Set<Promise<void>>();
  let k = 0;
  const deliver = async () => {
    const n = k++;
    const pr = (n % cfg.loadPrs) + 1;
    const step = Math.floor(n / cfg.loadPrs);
    const chain = repo.heads.get(pr)!;
    const head = chain[step % chain.length]!;
    await mover.move([[pr, head]]);
    const body = JSON.stringify(
      pullRequestPayload({
        action: "synchronize",
        number: pr,
        baseSha: repo.baseSha,
        headSha: head,
        before: step === 0 ? repo.baseSha : chain[(step - 1) % chain.length]!,
        updatedAt: new Date(Date.UTC(2026, 0, 1) + step * 1000).toISOString().replace(/\.\d+Z$/, "Z"),
        cloneUrl: repo.bare,
      }),
    );
    deliveries.sent++;
    const status = await postWebhook(port, agent, "pull_request", randomUUID(), body);
    if (status >= 200 && status < 300) deliveries.ok++;
    else deliveries.failed++;
  };
  const timer = setInterval(() => {
    const p = deliver().finally(() => inFlight.delete(p));
    inFlight.add(p);
  }, 1000 / cfg.deliveriesPerSecond);
  return {
    agent,
    deliveries,
    /** No more deliveries; resolves once those sent are answered. */
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
      await mover.close();
    },
  };
}

/** A page over HTTP with the session cookie: its text and times (a non-200 or no server-timing throws). */
function pageGetter(kind: Kind, origin: string, cookie: string): Get {
  return async (path) => {
    const started = performance.now();
    const response = await fetch(`${origin}${path}`, { headers: { cookie }, redirect: "manual" });
    const text = await response.text();
    const wall = performance.now() - started;
    const timing = /app;dur=([\d.]+)/.exec(response.headers.get("server-timing") ?? "");
    if (response.status !== 200 || !timing)
      throw new Error(`${kind}: GET ${path} answered ${response.status} (server-timing ${timing ? "set" : "missing"})`);
    return { text, sample: { server: Number(timing[1]), wall } };
  };
}

/** After a warm-up, what the pages show, checked once: the measured pages carry what was seeded. */
async function checkPages(get: Get) {
  const pages = Object.keys(PAGES) as Page[];
  for (let i = 0; i < WARM_UP; i++) for (const page of pages) await get(PAGES[page]);
  const big = (await get(PAGES.runView)).text;
  const many = (await get(PAGES.repositoryPage)).text;
  return {
    runViewFindings: big.split('<details class="finding"').length - 1,
    runViewTurns: big.split('<tr id="turn-').length - 1,
    repositoryTotal: Number((/([\d,]+)\s+pull\s+requests?/.exec(many)?.[1] ?? "NaN").replace(/,/g, "")),
    // the scorecard's posted findings: every seeded one (none of the first five statuses is a note)
    repositoryPosted: Number((/<dt>Posted<\/dt>\s*<dd>([\d,]+)/.exec(many)?.[1] ?? "NaN").replace(/,/g, "")),
    runViewKb: Math.round(Buffer.byteLength(big) / 1024),
  };
}

/** Rounds of every page in turn, spread over `seconds` (a pause after each round, as between a person's clicks). */
async function pass(get: Get, iterations: number, seconds: number) {
  const pages = Object.keys(PAGES) as Page[];
  const taken = Object.fromEntries(pages.map((p) => [p, [] as Sample[]])) as Record<Page, Sample[]>;
  const from = performance.now();
  for (let i = 0; i < iterations; i++) {
    for (const page of pages) taken[page].push((await get(PAGES[page])).sample);
    const due = from + ((i + 1) * seconds * 1000) / iterations;
    if (i < iterations - 1 && performance.now() < due) await sleep(due - performance.now());
  }
  return { samples: taken, from, to: performance.now() };
}

/** The measurement: the workers reviewing all through (the window is long enough to span many reviews). */
async function measureUnderLoad(gh: GitHubHttpStandIn, load: ReturnType<typeof startDeliveries>, get: Get) {
  const reviewsBefore = gh.reviews.length;
  const deliveriesBefore = load.deliveries.ok;
  const loadBefore = loadavg()[0]!;
  const loaded = await pass(get, cfg.iterations, cfg.seconds);
  const loadAfter = loadavg()[0]!;
  const reviewsDuringMeasurement = gh.reviews.filter((r) => r.at >= loaded.from && r.at <= loaded.to).length;
  const measuredSeconds = (loaded.to - loaded.from) / 1000;
  return {
    samples: loaded.samples,
    figures: {
      measuredSeconds: round(measuredSeconds, 1),
      deliveriesDuringMeasurement: load.deliveries.ok - deliveriesBefore,
      reviewsDuringMeasurement,
      reviewsPerSecond: round(reviewsDuringMeasurement / measuredSeconds),
      /** The machine's 1-minute load average before and after the window (2 cores: other work shows here too). */
      loadAverage: [round(loadBefore), round(loadAfter)],
      reviewsBefore,
    },
  };
}

/** Until `count` reviews were posted; `failure` thrown past 120 s. */
async function untilReviewsPosted(gh: GitHubHttpStandIn, count: number, failure: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (gh.reviews.length < count) {
    if (Date.now() > deadline) throw new Error(failure);
    await sleep(100);
  }
}

/** Until no review was posted for 3 s (at most 120 s). */
async function untilQuiet(gh: GitHubHttpStandIn): Promise<void> {
  let posted = gh.reviews.length;
  let quietSince = performance.now();
  const idleDeadline = Date.now() + 120_000;
  while (performance.now() - quietSince < 3000 && Date.now() < idleDeadline) {
    await sleep(250);
    if (gh.reviews.length !== posted) {
      posted = gh.reviews.length;
      quietSince = performance.now();
    }
  }
}

/** The turns the workers ran, read as the app reads its database (it has stopped). */
async function readLoadTurns(pg: { url: string } | undefined, dataDir: string) {
  const after = await openDatabase(
    pg ? { databaseUrl: pg.url, maxConnections: 2 } : { pgliteDir: join(dataDir, "pglite") },
  );
  const turnRows = (
    await after.executeSql(
      "select t.status, count(*)::int as n from turns t join runs r on r.id = t.run_id where r.repository_id = $1 group by t.status",
      [REPO_ID],
    )
  ).rows as { status: string; n: number }[];
  await after.close();
  return turnRows;
}

/** Every page's figures under load, the big pages' ratios to their baselines, and the idle figures beside. */
function figuresOf(loadedSamples: Record<Page, Sample[]>, idleSamples: Record<Page, Sample[]>) {
  const pages = Object.keys(PAGES) as Page[];
  const of = (taken: Record<Page, Sample[]>) =>
    Object.fromEntries(
      pages.map((p) => [p, { ...summary(taken[p].map((s) => s.server)), wall: summary(taken[p].map((s) => s.wall)) }]),
    ) as Record<Page, ReturnType<typeof summary> & { wall: ReturnType<typeof summary> }>;
  const figures = of(loadedSamples);
  const idle = of(idleSamples);
  return {
    ...figures,
    runViewRatio: round(figures.runView.p95 / figures.runViewBaseline.p95),
    repositoryPageRatio: round(figures.repositoryPage.p95 / figures.repositoryPageBaseline.p95),
    idle: {
      runView: idle.runView,
      runViewBaseline: idle.runViewBaseline,
      repositoryPage: idle.repositoryPage,
      repositoryPageBaseline: idle.repositoryPageBaseline,
      homePage: idle.homePage,
      operatorPage: idle.operatorPage,
    },
  };
}

const databases = [await measure("embedded"), await measure("postgres")];
emitResult({ section: "web", config: { ...cfg, small: SMALL, targetsMs: TARGET_MS }, databases });
process.exit(0);
