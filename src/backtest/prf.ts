import type { Prf } from "./configuration-summary.js";

/**
 * Micro-averaged over PRs: precision = matched findings / raised findings, recall = matched real issues /
 * real issues, F1 their harmonic mean (0 when both are 0). Nothing raised leaves precision null (and so F1);
 * no real issue leaves recall null.
 */
export function prf(c: { raised: number; matchedFindings: number; golden: number; matchedGolden: number }): Prf {
  const precision = c.raised === 0 ? null : c.matchedFindings / c.raised;
  const recall = c.golden === 0 ? null : c.matchedGolden / c.golden;
  const f1 =
    precision === null || recall === null
      ? null
      : precision + recall === 0
        ? 0
        : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}
