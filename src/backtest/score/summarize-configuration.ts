import type { ConfigurationSummary } from "./configuration-summary.js";
import { prf } from "./prf.js";
import type { ScoredPr } from "./scored-pr.js";

/** A configuration's totals over its PRs: only PRs the golden file names count towards precision and recall. */
export function summarizeConfiguration(label: string, prs: readonly ScoredPr[]): ConfigurationSummary {
  const scored = prs.filter((p) => p.golden !== undefined);
  const sum = (values: number[]) => values.reduce((s, v) => s + v, 0);
  const counts = {
    raised: sum(scored.map((p) => p.raised)),
    matchedFindings: sum(scored.map((p) => p.matchedFindings)),
    golden: sum(scored.map((p) => p.golden ?? 0)),
    matchedGolden: sum(scored.map((p) => p.matchedGolden)),
  };
  const precisionBySeverity: ConfigurationSummary["precisionBySeverity"] = {};
  const recallBySeverity: ConfigurationSummary["recallBySeverity"] = {};
  for (const p of scored) {
    for (const [s, c] of Object.entries(p.byFindingSeverity)) {
      const t = (precisionBySeverity[s] ??= { n: 0, matched: 0, precision: null });
      t.n += c.n;
      t.matched += c.matched;
    }
    for (const [s, c] of Object.entries(p.byGoldenSeverity)) {
      const t = (recallBySeverity[s] ??= { n: 0, matched: 0, recall: null });
      t.n += c.n;
      t.matched += c.matched;
    }
  }
  for (const t of Object.values(precisionBySeverity)) t.precision = t.n === 0 ? null : t.matched / t.n;
  for (const t of Object.values(recallBySeverity)) t.recall = t.n === 0 ? null : t.matched / t.n;
  const costUsd = sum(prs.map((p) => p.costUsd));
  const side = (r: "reproduced" | "unreproduced") => {
    const c = {
      raised: sum(scored.map((p) => p.byReproduction[r].raised)),
      matchedFindings: sum(scored.map((p) => p.byReproduction[r].matchedFindings)),
      matchedGolden: sum(scored.map((p) => p.byReproduction[r].matchedGolden)),
    };
    return { ...c, ...prf({ ...c, golden: counts.golden }) };
  };
  return {
    label,
    prs: prs.length,
    scoredPrs: scored.length,
    ...counts,
    notes: sum(prs.map((p) => p.notes)),
    ...prf(counts),
    findingsPerPr: prs.length === 0 ? null : sum(prs.map((p) => p.raised)) / prs.length,
    precisionBySeverity,
    recallBySeverity,
    byReproduction: { reproduced: side("reproduced"), unreproduced: side("unreproduced") },
    costUsd,
    judgeCostUsd: sum(prs.map((p) => p.judgeCostUsd)),
    costPerPr: prs.length === 0 ? null : costUsd / prs.length,
    wallMsPerPr: prs.length === 0 ? null : sum(prs.map((p) => p.wallMs)) / prs.length,
  };
}
