import type { BacktestReport } from "./backtest-report.js";
import { prf } from "./prf.js";

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
  "cost_usd",
  "judge_cost_usd",
  "wall_seconds",
  "skipped",
];

/** report.csv: one row per configuration and PR, with that PR's own precision, recall and F-score. */
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

function cell(value: string): string {
  return /[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
