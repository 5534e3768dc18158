import type { BacktestReport } from "../backtest-report.js";
import { prf } from "./prf.js";
import type { Reproduction } from "./reproduction-count.js";
import type { ScoredPr } from "./scored-pr.js";

const COLUMNS = [
  "configuration",
  "pr",
  "raised",
  "notes",
  "golden",
  "matched_findings",
  "matched_golden",
  "precision",
  "recall",
  "f1",
  "reproduced_raised",
  "reproduced_matched_findings",
  "reproduced_matched_golden",
  "reproduced_precision",
  "reproduced_recall",
  "unreproduced_raised",
  "unreproduced_matched_findings",
  "unreproduced_matched_golden",
  "unreproduced_precision",
  "unreproduced_recall",
  "cost_usd",
  "judge_cost_usd",
  "wall_seconds",
  "skipped",
];

/**
 * report.csv: one row per configuration and PR, with that PR's own precision, recall and F-score, then the
 * same apart for the findings the app reproduced and the rest (each side's recall is over every real issue).
 */
export function reportCsv(report: BacktestReport): string {
  const lines = [COLUMNS.join(",")];
  for (const c of report.configurations) {
    for (const p of c.prs) {
      const s = prf({
        raised: p.raised,
        matchedFindings: p.matchedFindings,
        golden: p.golden ?? 0,
        matchedGolden: p.matchedGolden,
      });
      const golden = p.golden !== undefined;
      lines.push(
        [
          c.label,
          p.prId,
          p.raised,
          p.notes,
          golden ? p.golden : "",
          golden ? p.matchedFindings : "",
          golden ? p.matchedGolden : "",
          golden && s.precision !== null ? s.precision.toFixed(4) : "",
          golden && s.recall !== null ? s.recall.toFixed(4) : "",
          golden && s.f1 !== null ? s.f1.toFixed(4) : "",
          ...reproductionCells(p, "reproduced"),
          ...reproductionCells(p, "unreproduced"),
          p.costUsd.toFixed(6),
          p.judgeCostUsd.toFixed(6),
          (p.wallMs / 1000).toFixed(1),
          p.skipped ?? "",
        ]
          .map((v) => cell(String(v)))
          .join(","),
      );
    }
  }
  return `${lines.join("\n")}\n`;
}

/** A side's raised findings, then (when the PR has real issues to score against) its matches, precision and recall. */
function reproductionCells(p: ScoredPr, side: Reproduction): (string | number)[] {
  const c = p.byReproduction[side];
  if (p.golden === undefined) return [c.raised, "", "", "", ""];
  const s = prf({ ...c, golden: p.golden });
  return [
    c.raised,
    c.matchedFindings,
    c.matchedGolden,
    s.precision === null ? "" : s.precision.toFixed(4),
    s.recall === null ? "" : s.recall.toFixed(4),
  ];
}

function cell(value: string): string {
  return /[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
