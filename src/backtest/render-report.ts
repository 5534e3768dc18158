import type { BacktestReport } from "./backtest-report.js";
import type { ConfigurationSummary } from "./score/configuration-summary.js";
import { format } from "./format.js";
import type { MetricDifference } from "./score/metric-difference.js";

/**
 * The report as the terminal shows it: one column per configuration, B − A with its interval, then severities,
 * then precision and recall of the findings the app reproduced and of the rest.
 */
export function renderReport(report: BacktestReport): string {
  const lines = [
    `Backtest of ${report.repo}: ${report.prs.length} PR${report.prs.length === 1 ? "" : "s"}${report.golden ? `, golden file ${report.golden}` : ""}, matching: ${report.matching}`,
    "",
    ...table(summaryRows(report)),
  ];
  if (report.matching !== "none") lines.push(...breakdownLines(report.configurations.map((c) => c.summary)));
  lines.push(...footerLines(report));
  return lines.join("\n");
}

/** The main table: a row per measure, a column per configuration, and B − A with its interval when there are two. */
function summaryRows(report: BacktestReport): string[][] {
  const configs = report.configurations;
  const cmp = report.comparison;
  const diff = (m: MetricDifference["metric"], show: (v: number | null) => string) => {
    const d = cmp?.metrics.find((x) => x.metric === m);
    if (!d) return "";
    const part = d.resamples < cmp!.resamples ? ` (${d.resamples} of ${cmp!.resamples} resamples had a value)` : "";
    return `${show(d.difference)} [${show(d.low)}, ${show(d.high)}]${part}`;
  };
  const usdDiff = (v: number | null) => (v === null ? "—" : `${v < -5e-7 ? "-" : "+"}${format.usd(Math.abs(v))}`);
  const msDiff = (v: number | null) => (v === null ? "—" : `${v <= -50 ? "-" : "+"}${format.seconds(Math.abs(v))}`);
  const rows: string[][] = [
    ["", ...configs.map((c) => c.label), ...(cmp ? [`${cmp.b} − ${cmp.a} (95% interval, ${cmp.prs} PRs)`] : [])],
    ["configuration", ...configs.map((c) => c.describe), ...(cmp ? [""] : [])],
    [
      "PRs reviewed",
      ...configs.map((c) => `${c.summary.prs}${c.failures.length ? ` (${c.failures.length} failed)` : ""}`),
      ...(cmp ? [""] : []),
    ],
  ];
  if (report.matching !== "none") {
    rows.push(
      [
        "precision",
        ...configs.map(
          (c) => `${format.ratio(c.summary.precision)} (${c.summary.matchedFindings}/${c.summary.raised})`,
        ),
        ...(cmp ? [diff("precision", (v) => format.signed(v))] : []),
      ],
      [
        "recall",
        ...configs.map((c) => `${format.ratio(c.summary.recall)} (${c.summary.matchedGolden}/${c.summary.golden})`),
        ...(cmp ? [diff("recall", (v) => format.signed(v))] : []),
      ],
      ["F1", ...configs.map((c) => format.ratio(c.summary.f1)), ...(cmp ? [diff("f1", (v) => format.signed(v))] : [])],
    );
  }
  rows.push(
    [
      "findings per PR",
      ...configs.map((c) => (c.summary.findingsPerPr === null ? "—" : c.summary.findingsPerPr.toFixed(2))),
      ...(cmp ? [diff("findingsPerPr", (v) => format.signed(v, 2))] : []),
    ],
    ["raised / notes", ...configs.map((c) => `${c.summary.raised} / ${c.summary.notes}`), ...(cmp ? [""] : [])],
    [
      "cost per PR",
      ...configs.map((c) => format.usd(c.summary.costPerPr)),
      ...(cmp ? [diff("costPerPr", usdDiff)] : []),
    ],
    [
      "time per PR",
      ...configs.map((c) => format.seconds(c.summary.wallMsPerPr)),
      ...(cmp ? [diff("wallMsPerPr", msDiff)] : []),
    ],
    ["review cost", ...configs.map((c) => format.usd(c.summary.costUsd)), ...(cmp ? [""] : [])],
  );
  return rows;
}

/** Recall and precision by severity, then by reproduction. */
function breakdownLines(summaries: ConfigurationSummary[]): string[] {
  return [
    "",
    "recall by the real issue's severity:",
    ...table(severityRows(summaries, "recall")),
    "",
    "precision by the finding's severity:",
    ...table(severityRows(summaries, "precision")),
    "",
    "by reproduction (the app ran the reviewer's reproducer; recall over every real issue):",
    ...table(reproductionRows(summaries)),
  ];
}

/** What was spent, each failure, each PR left out and why, the warnings, and why the backtest stopped early. */
function footerLines(report: BacktestReport): string[] {
  const configs = report.configurations;
  const judge = report.judge;
  const lines = [
    "",
    `spent ${format.usd(report.spentUsd)} in all${judge ? ` (judge: ${judge.asked} asked, ${judge.cached} from the cache, ${format.usd(judge.costUsd)})` : ""}`,
  ];
  for (const c of configs) for (const f of c.failures) lines.push(`${c.label} ${f.prId}: ${f.error}`);
  for (const m of report.missing) lines.push(`not in the clone: ${m}`);
  for (const o of report.otherRepository) lines.push(`skipped, another repository's: ${o}`);
  for (const f of report.flagged) lines.push(`skipped, flagged in the golden file: ${f}`);
  if (report.withoutGolden > 0)
    lines.push(
      `${report.withoutGolden} PR${report.withoutGolden === 1 ? "" : "s"} found in the history but not in the golden file: not run`,
    );
  lines.push(...report.warnings);
  if (report.stopped) lines.push(report.stopped);
  return lines;
}

function reproductionRows(summaries: ConfigurationSummary[]): string[][] {
  const sides = [
    ["reproduced", "reproduced"],
    ["unreproduced", "not reproduced, broken or none"],
  ] as const;
  return [
    ["", ...summaries.map((s) => s.label)],
    ...sides.flatMap(([side, name]) => [
      [
        `  ${name}: precision`,
        ...summaries.map((s) => {
          const t = s.byReproduction[side];
          return `${format.ratio(t.precision)} (${t.matchedFindings}/${t.raised})`;
        }),
      ],
      [
        `  ${name}: recall`,
        ...summaries.map((s) => {
          const t = s.byReproduction[side];
          return `${format.ratio(t.recall)} (${t.matchedGolden}/${s.golden})`;
        }),
      ],
    ]),
  ];
}

function severityRows(summaries: ConfigurationSummary[], kind: "recall" | "precision"): string[][] {
  return [["", ...summaries.map((s) => s.label)], ...severityLines(summaries, kind)];
}

function severityLines(summaries: ConfigurationSummary[], kind: "recall" | "precision"): string[][] {
  const severities = [
    ...new Set(summaries.flatMap((s) => Object.keys(kind === "recall" ? s.recallBySeverity : s.precisionBySeverity))),
  ].sort((x, y) => rank(x) - rank(y) || x.localeCompare(y));
  return severities.map((sev) => [
    `  ${sev}`,
    ...summaries.map((s) => {
      const t = kind === "recall" ? s.recallBySeverity[sev] : s.precisionBySeverity[sev];
      if (!t) return "—";
      return `${format.ratio(kind === "recall" ? (t as { recall: number | null }).recall : (t as { precision: number | null }).precision)} (${t.matched}/${t.n})`;
    }),
  ]);
}

const ORDER = ["critical", "high", "error", "medium", "warning", "low", "info"];
function rank(severity: string): number {
  const i = ORDER.indexOf(severity);
  return i < 0 ? ORDER.length : i;
}

function table(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd(),
  );
}
