import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BacktestFinding } from "../../../src/backtest/replay/backtest-finding.js";
import type { BacktestReport } from "../../../src/backtest/backtest-report.js";
import type { GoldenIssue } from "../../../src/backtest/prs/golden-pr.js";
import type { PrMatch } from "../../../src/backtest/score/pr-match.js";
import type { PrReviewResult } from "../../../src/backtest/replay/pr-review-result.js";
import { renderReport } from "../../../src/backtest/render-report.js";
import { reportCsv } from "../../../src/backtest/score/report-csv.js";
import { scorePr } from "../../../src/backtest/score/score-pr.js";
import { ledgerFinding } from "../../../src/backtest/replay/ledger-finding.js";
import { summarizeConfiguration } from "../../../src/backtest/score/summarize-configuration.js";
import { listFindings } from "../../../src/db/findings.js";
import { seedFindings, seedRuns } from "../../helpers/run-view-seed.js";
import { createTestDatabase, type TestDatabase } from "../../helpers/test-database.js";

/**
 * Whether reproduction buys precision: the report scores the raised findings the app reproduced apart from the
 * rest (a reproducer that passed, one that broke, or none), each side's precision over its own findings and its
 * recall over every real issue of the PR.
 */

const finding = (id: string, reproduction?: string, placement: BacktestFinding["placement"] = "inline") =>
  ({
    id,
    path: "src/a.ts",
    line: 1,
    endLine: null,
    severity: "error",
    action: "auto-fix",
    title: id,
    body: id,
    status: "open",
    placement,
    ...(reproduction ? { reproduction } : {}),
  }) satisfies BacktestFinding;

const result = (prId: string, findings: BacktestFinding[]): PrReviewResult => ({
  prId,
  pushes: 1,
  baseSha: "b",
  heads: ["h"],
  reviews: 1,
  findings,
  turns: 1,
  tokensIn: 0,
  tokensOut: 0,
  costUsd: 0.1,
  wallMs: 1000,
});

const issues = (n: number): GoldenIssue[] =>
  Array.from({ length: n }, (_, i) => ({ comment: `issue ${i}`, severity: "high" }));
const match = (finding: string, issue: number): PrMatch => ({
  finding,
  issue,
  score: 1,
  by: "location",
  reason: "same place",
});

// PR #1: three reproduced findings (two right, on the same real issue, and one wrong); two not reproduced (one
// right), one broken (wrong), one without a reproducer (right), one kept as a note (right, reproduced: not scored).
const pr1 = scorePr(
  result("#1", [
    finding("NM-1", "reproduced"),
    finding("NM-2", "reproduced"),
    finding("NM-3", "reproduced"),
    finding("NM-4", "not-reproduced"),
    finding("NM-5", "not-reproduced"),
    finding("NM-6", "broken"),
    finding("NM-7"),
    finding("NM-8", "reproduced", "note"),
  ]),
  issues(4),
  [match("NM-1", 0), match("NM-2", 1), match("NM-4", 2), match("NM-7", 3)],
  0,
);
// PR #2: one reproduced finding, right; one real issue nobody found.
const pr2 = scorePr(result("#2", [finding("NM-1", "reproduced")]), issues(2), [match("NM-1", 0)], 0);
// PR #3: not in the golden file: counted, not scored.
const pr3 = scorePr(result("#3", [finding("NM-1", "reproduced")]), undefined, [], 0);

describe("scores by reproduction", () => {
  it("splits a PR's raised findings by what the app saw of their reproducers (notes left out as everywhere)", () => {
    expect(pr1.raised).toBe(7);
    expect(pr1.byReproduction).toEqual({
      reproduced: { raised: 3, matchedFindings: 2, matchedGolden: 2 },
      unreproduced: { raised: 4, matchedFindings: 2, matchedGolden: 2 },
    });
  });

  it("sums the PRs the golden file names: each side's precision over its findings, recall over every real issue", () => {
    const summary = summarizeConfiguration("A", [pr1, pr2, pr3]);
    expect(summary.golden).toBe(6);
    expect(summary.byReproduction.reproduced).toMatchObject({
      raised: 4,
      matchedFindings: 3,
      matchedGolden: 3,
      precision: 0.75,
      recall: 0.5,
    });
    expect(summary.byReproduction.unreproduced).toMatchObject({
      raised: 4,
      matchedFindings: 2,
      matchedGolden: 2,
      precision: 0.5,
      recall: 2 / 6,
    });
    expect(summary.precision).toBe(5 / 8); // the whole, as before
  });

  it("writes each side's counts, precision and recall in report.csv and prints them under the table", () => {
    const summary = summarizeConfiguration("A", [pr1, pr2, pr3]);
    const report: BacktestReport = {
      repo: "octo/demo",
      matching: "location",
      prs: [],
      missing: [],
      otherRepository: [],
      flagged: [],
      withoutGolden: 0,
      warnings: [],
      configurations: [
        {
          label: "A",
          describe: "fake",
          summary,
          prs: [pr1, pr2, pr3].map((p) => ({ ...p, findings: [] })),
          failures: [],
        },
      ],
      spentUsd: 0,
    };
    const [header, ...rows] = reportCsv(report).trim().split("\n");
    const columns = header!.split(",");
    const cells = rows.map((r) => Object.fromEntries(r.split(",").map((v, i) => [columns[i], v])));
    expect(cells[0]).toMatchObject({
      pr: "#1",
      reproduced_raised: "3",
      reproduced_matched_findings: "2",
      reproduced_matched_golden: "2",
      reproduced_precision: "0.6667",
      reproduced_recall: "0.5000",
      unreproduced_raised: "4",
      unreproduced_precision: "0.5000",
      unreproduced_recall: "0.5000",
    });
    expect(cells[1]).toMatchObject({ pr: "#2", reproduced_precision: "1.0000", unreproduced_precision: "" });
    expect(cells[2]).toMatchObject({
      pr: "#3",
      reproduced_raised: "1",
      reproduced_precision: "",
      reproduced_recall: "",
    });
    const text = renderReport(report);
    expect(text).toMatch(/ {2}reproduced: precision\s+0\.750 \(3\/4\)/);
    expect(text).toMatch(/ {2}reproduced: recall\s+0\.500 \(3\/6\)/);
    expect(text).toMatch(/ {2}not reproduced, broken or none: precision\s+0\.500 \(2\/4\)/);
    expect(text).toMatch(/ {2}not reproduced, broken or none: recall\s+0\.333 \(2\/6\)/);
  });
});

describe("a finding's reproduction, from the ledger the replay leaves (pglite)", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
  });
  afterAll(async () => {
    await database.dispose();
  });

  it("is what the app saw of its reproducer; a finding no reproducer ran for has none", async () => {
    const db = database.handle.db;
    const [runId] = await seedRuns(db, [{ repositoryId: 5, fullName: "octo/demo", prNumber: 1 }]);
    await seedFindings(db, runId!, [
      { number: 1, reproduction: "reproduced", commentId: 77 },
      { number: 2, reproduction: "not-reproduced", status: "note" },
      { number: 3, reproduction: "broken", reviewId: 5 },
      { number: 4 },
    ]);
    const inline = new Map([[77, { path: "src/placed.ts", line: 9 }]]);
    const findings = (await listFindings(db, runId!)).map((f) => ledgerFinding(f, inline));
    expect(findings.map((f) => [f.id, f.placement, f.reproduction])).toEqual([
      ["NM-1", "inline", "reproduced"],
      ["NM-2", "note", "not-reproduced"],
      ["NM-3", "body", "broken"],
      ["NM-4", "body", undefined],
    ]);
    expect(findings[0]).toMatchObject({ path: "src/placed.ts", line: 9 });
    expect(findings[3]).not.toHaveProperty("reproduction");
  });
});
