import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BacktestIo } from "../../src/backtest/backtest-io.js";
import { goldenFromHistory } from "../../src/backtest/prs/golden-from-history.js";
import { parseBacktestArgs } from "../../src/backtest/cli/parse-backtest-args.js";
import { runBacktest } from "../../src/backtest/run-backtest.js";
import type { Database } from "../../src/db/database.js";
import { runs } from "../../src/db/schema.js";
import { inArray } from "drizzle-orm";
import { seedFindings, seedRuns, type SeedFinding } from "../helpers/run-view-seed.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../helpers/test-database.js";
import {
  baseEnv,
  calls,
  F1,
  F2,
  F3,
  F4,
  F5,
  fakeEnv,
  makeRepo,
  options,
  REVIEWER_A,
  REVIEWER_B,
  WIDGETS,
} from "./backtest-world.js";

const kinds = await databaseKinds();

type Reported = { path: string; line: number; severity: string; title: string; body: string };
const decided = (number: number, f: Reported, outcome: string): SeedFinding => ({
  number,
  path: f.path,
  line: f.line,
  severity: f.severity,
  title: f.title,
  body: f.body,
  status: outcome === "open-at-merge" ? "open" : outcome,
  outcome,
});

/**
 * The app's record of WIDGETS: PR 1 (F1 fixed, F2 dismissed), PR 2 (F3 fixed, F4 withdrawn, a note), PR 3
 * (F5 fixed), each merged, 3 newest; PR 4 merged with only a finding left open; PR 5 still open with a fix;
 * another repository's merged PR 1.
 */
async function seedHistory(db: Database): Promise<void> {
  const titles = ["Add parser", "Add cache", "Add logger", "Add docs", "Add more"];
  const ids = await seedRuns(
    db,
    titles.map((title, i) => ({ repositoryId: 7, fullName: WIDGETS, prNumber: i + 1, title })),
  );
  const [other] = await seedRuns(db, [{ repositoryId: 8, fullName: "someone/else", prNumber: 1 }]);
  const merged = (n: number) => new Date(Date.UTC(2026, 9, n));
  for (const [i, id] of ids.slice(0, 4).entries())
    await db
      .update(runs)
      .set({ mergedAt: merged(i + 1), state: "closed" })
      .where(inArray(runs.id, [id]));
  await db
    .update(runs)
    .set({ mergedAt: merged(9) })
    .where(inArray(runs.id, [other!]));
  await seedFindings(db, ids[0]!, [decided(1, F1, "fixed"), decided(2, F2, "dismissed")]);
  await seedFindings(db, ids[1]!, [
    decided(1, F3, "fixed"),
    decided(2, F4, "withdrawn"),
    { ...decided(3, F4, "fixed"), status: "note", outcome: null, fingerprint: "note" },
  ]);
  await seedFindings(db, ids[2]!, [decided(1, F5, "fixed")]);
  await seedFindings(db, ids[3]!, [decided(1, F2, "open-at-merge")]);
  await seedFindings(db, ids[4]!, [decided(1, F1, "fixed")]);
  await seedFindings(db, other!, [decided(1, F1, "fixed")]);
}

describe.each(kinds)("goldenFromHistory on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await seedHistory(database.handle.db);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("a repository's merged PRs with decided findings, newest first; fixed ones are the real issues", async () => {
    const golden = await goldenFromHistory(database.handle.db, WIDGETS.toUpperCase());
    expect(golden.map((g) => [g.key.text, g.key.repo, g.issues.map((i) => [i.path, i.line, i.severity])])).toEqual([
      ["#3", WIDGETS, [["src/logger.ts", 5, "error"]]],
      ["#2", WIDGETS, [["src/cache.ts", 4, "error"]]],
      ["#1", WIDGETS, [["src/parser.ts", 3, "error"]]],
    ]);
    expect(golden[2]!.issues[0]!.comment).toBe("Unchecked index\n\ntokens[i + 1] may be out of range.");
    expect((await goldenFromHistory(database.handle.db, WIDGETS, 2)).map((g) => g.key.number)).toEqual([3, 2]);
    expect(await goldenFromHistory(database.handle.db, "nobody/here")).toEqual([]);
  });
});

describe("backtest --from-history: the team's own outcomes as the golden file", () => {
  const root = tempDir("nm-history-");
  const repoDir = join(root, "clone");
  let report: Awaited<ReturnType<typeof runBacktest>>;
  const progressed: string[] = [];

  beforeAll(async () => {
    const historyDir = join(root, "app-data");
    const history = await createTestDatabase("pglite", historyDir);
    await seedHistory(history.handle.db);
    await history.dispose();
    makeRepo(repoDir);
    const io: BacktestIo = { env: baseEnv(), print: () => {}, progress: (l) => progressed.push(l) };
    const parsed = parseBacktestArgs(["--repo", repoDir, "--from-history", "--history-pglite-dir", historyDir], {});
    expect(parsed).not.toBe("help");
    report = await runBacktest(
      options(
        repoDir,
        join(root, "out"),
        [
          { label: "A", env: fakeEnv(root, "a", REVIEWER_A) },
          { label: "B", env: fakeEnv(root, "b", REVIEWER_B) },
        ],
        {
          golden: undefined,
          fromHistory: (parsed as { fromHistory: { pgliteDir: string } }).fromHistory,
          matching: "location",
        },
      ),
      io,
    );
  }, 120_000);
  afterAll(() => removeTempDirs());

  it("replays the merged PRs and scores each configuration against what the team fixed", () => {
    expect(progressed).toContain(
      `golden file from history: 3 merged PRs of ${WIDGETS} with decided findings, 3 fixed (real issues)`,
    );
    expect(report.prs.map((p) => p.id).sort()).toEqual(["#1", "#2", "#3"]);
    const [a, b] = report.configurations.map((c) => c.summary);
    // A raises the dismissed naming nit and the withdrawn typo again, and misses the logger's leak
    expect([a!.raised, a!.matchedFindings, a!.golden, a!.matchedGolden]).toEqual([4, 2, 3, 2]);
    expect(a!.precision).toBeCloseTo(0.5, 10);
    expect(a!.recall).toBeCloseTo(2 / 3, 10);
    // B raises exactly what the team fixed
    expect([b!.raised, b!.matchedFindings, b!.golden, b!.matchedGolden]).toEqual([3, 3, 3, 3]);
  });
  it("says so when the app's database predates finding outcomes, before any review", async () => {
    const oldDir = join(root, "old-app-data");
    const old = await createTestDatabase("pglite", oldDir);
    await old.handle.executeSql("alter table findings drop column outcome");
    await old.dispose();
    const io: BacktestIo = { env: baseEnv(), print: () => {}, progress: () => {} };
    await expect(
      runBacktest(
        options(repoDir, join(root, "out-old"), [{ label: "A", env: fakeEnv(root, "old", REVIEWER_A) }], {
          golden: undefined,
          fromHistory: { pgliteDir: oldDir },
          matching: "location",
        }),
        io,
      ),
    ).rejects.toThrow("--from-history: the app's database has no finding outcomes yet");
    expect(calls(root, "old")).toEqual([]);
  });
});

describe("parseBacktestArgs --from-history", () => {
  const parse = (args: string[], env: NodeJS.ProcessEnv = {}) => parseBacktestArgs(["--repo", "r", ...args], env);
  it.each([
    [["--from-history"], { DATABASE_URL: "postgres://app" }, { databaseUrl: "postgres://app" }],
    [["--from-history", "--history-database-url", "postgres://other"], {}, { databaseUrl: "postgres://other" }],
    [["--from-history", "--history-pglite-dir", "/data/pglite"], {}, { pgliteDir: "/data/pglite" }],
  ])("%j reads the history from %j", (args, env, expected) => {
    expect(parse(args, env)).toMatchObject({ fromHistory: expected });
  });

  it.each([
    [["--from-history"], "the app's database is needed"],
    [
      ["--from-history", "--golden", "g.json", "--history-pglite-dir", "d"],
      "--golden and --from-history: give one of them",
    ],
    [["--merges", "--history-pglite-dir", "d"], "only with --from-history"],
    [["--from-history", "--history-pglite-dir", "d", "--history-database-url", "u"], "give one of them"],
  ])("%j is refused: %s", (args, message) => {
    expect(() => parse(args)).toThrow(message);
  });
});
