/**
 * 10. The run view's server time: the queries behind a PR's run view and a repository's page, and their
 * rendering to HTML, on the embedded database (PGlite in its own process behind a unix socket, opened as
 * `npm start` opens it, on a data directory) and on PostgreSQL. Seeded directly: a PR with 500 findings (2–3 events each), 300 turns,
 * its sessions and 20 commands; a repository with 2,000 PRs (2 turns and 3 findings each). Each figure is
 * the p95 of repeated calls after a warm-up, against a baseline measured in the same run on the same
 * database: a small PR (5 findings, 3 turns) and a small repository (10 PRs). Also reported: the home
 * page over both repositories, a filtered later page, finding a repository by name, and the operator page
 * (queries only). Leaving RENDER empty measures the queries alone.
 */
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { DatabaseHandle } from "../../src/db/database.js";
import { findings, turns } from "../../src/db/schema.js";
import { migrateDatabase } from "../../src/db/migrate-database.js";
import { openDatabase } from "../../src/db/open-database.js";
import { renderRepositoryPage } from "../../src/web/pages/render-repository-page.js";
import { renderRunPage } from "../../src/web/pages/render-run-page.js";
import { findRepository } from "../../src/web/queries/find-repository.js";
import { readOperatorView } from "../../src/web/queries/read-operator-view.js";
import { readRepositoriesView } from "../../src/web/queries/read-repositories-view.js";
import { readRepositoryView } from "../../src/web/queries/read-repository-view.js";
import { readRunView } from "../../src/web/queries/read-run-view.js";
import type { RepositoryView } from "../../src/web/views/repository-view.js";
import type { RunView } from "../../src/web/views/run-view.js";
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
import { createDatabase, emitResult, percentile, round, SMOKE, tempRoot } from "../lib/common.js";

const cfg = SMOKE
  ? { findings: 50, turns: 30, prs: 200, iterations: 5 }
  : { findings: 500, turns: 300, prs: 2000, iterations: 40 };
const SMALL = { findings: 5, turns: 3, prs: 10 };
const TARGET_MS = { runView: 100, repositoryPage: 200 };

const CONTEXT = { user: { login: "alice" }, operator: true, github: { webOrigin: "https://github.com" } };
/** The pages' renderers, measured with the queries (the server's time for the page). */
const RENDER: { run?: (view: RunView) => string; repository?: (view: RepositoryView) => string } = {
  run: (view) => renderRunPage(view, CONTEXT),
  repository: (view) => renderRepositoryPage(view, CONTEXT),
};

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

/** A repository of `prs` PRs, each with 2 turns and 3 findings; the PRs' activity spread over time. */
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
  const findingRows = runIds.flatMap((runId) => findingsOf(3, []).map((f) => ({ ...f, runId })));
  for (let i = 0; i < turnRows.length; i += 1000) await db.insert(turns).values(turnRows.slice(i, i + 1000));
  for (let i = 0; i < findingRows.length; i += 1000) await db.insert(findings).values(findingRows.slice(i, i + 1000));
}

async function time(
  iterations: number,
  fn: () => Promise<unknown>,
): Promise<{ p50: number; p95: number; max: number }> {
  for (let i = 0; i < 3; i++) await fn(); // warm-up: prepared statements, caches
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return { p50: round(percentile(samples, 50)), p95: round(percentile(samples, 95)), max: round(samples.at(-1)!) };
}

async function open(kind: "embedded" | "postgres"): Promise<{ handle: DatabaseHandle; close: () => Promise<void> }> {
  if (kind === "embedded") {
    const handle = await openDatabase({ pgliteDir: join(tempRoot("web"), "pglite") });
    await migrateDatabase(handle);
    return { handle, close: () => handle.close() };
  }
  const pg = await createDatabase();
  const handle = await openDatabase({ databaseUrl: pg.url });
  await migrateDatabase(handle);
  return {
    handle,
    close: async () => {
      await handle.close();
      await pg.drop();
    },
  };
}

async function measure(kind: "embedded" | "postgres") {
  const { handle, close } = await open(kind);
  const db = handle.db;
  const seedStarted = performance.now();
  await seedPullRequest(handle, BIG_PR_REPO, 1, cfg, 20);
  await seedPullRequest(handle, BIG_PR_REPO, 2, SMALL, 2);
  await seedRepository(handle, MANY_PRS_REPO, cfg.prs);
  await seedRepository(handle, FEW_PRS_REPO, SMALL.prs);
  await handle.executeSql("analyze");
  const seedMs = round(performance.now() - seedStarted, 0);

  const runPage = async (prNumber: number) => {
    const view = await readRunView(db, BIG_PR_REPO.id, prNumber);
    RENDER.run?.(view!);
    return view!;
  };
  const repositoryPage = async (
    repositoryId: number,
    filter: Parameters<typeof readRepositoryView>[2] = { state: "all", page: 1 },
  ) => {
    const view = await readRepositoryView(db, repositoryId, filter);
    RENDER.repository?.(view);
    return view;
  };
  // what the pages show, checked once: the measured calls read what was seeded
  const big = await runPage(1);
  const many = await repositoryPage(MANY_PRS_REPO.id);
  const checks = {
    runViewFindings: big.findings.length,
    runViewEvents: big.findings.reduce((n, f) => n + f.events.length, 0),
    runViewTurns: big.turns.length,
    repositoryTotal: many.total,
    repositoryRows: many.pullRequests.length,
  };

  const iterations = cfg.iterations;
  const result = {
    database: kind,
    seedMs,
    checks,
    rendered: RENDER.run !== undefined && RENDER.repository !== undefined,
    runView: await time(iterations, () => runPage(1)),
    runViewBaseline: await time(iterations, () => runPage(2)),
    repositoryPage: await time(iterations, () => repositoryPage(MANY_PRS_REPO.id)),
    repositoryPageBaseline: await time(iterations, () => repositoryPage(FEW_PRS_REPO.id)),
    repositoryPageFiltered: await time(iterations, () =>
      repositoryPage(MANY_PRS_REPO.id, { state: "open", author: "Carol", page: 5 }),
    ),
    homePage: await time(iterations, () =>
      readRepositoriesView(db, [BIG_PR_REPO.id, MANY_PRS_REPO.id, FEW_PRS_REPO.id]),
    ),
    findRepository: await time(iterations, () => findRepository(db, "OCTO/many-prs")),
    operatorPage: await time(iterations, () => readOperatorView(db)),
  };
  await close();
  return {
    ...result,
    runViewRatio: round(result.runView.p95 / result.runViewBaseline.p95),
    repositoryPageRatio: round(result.repositoryPage.p95 / result.repositoryPageBaseline.p95),
  };
}

const databases = [await measure("embedded"), await measure("postgres")];
emitResult({ section: "web", config: { ...cfg, small: SMALL, targetsMs: TARGET_MS }, databases });
process.exit(0);
