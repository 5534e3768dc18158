import type { Prf } from "./configuration-summary.js";

/**
 * Micro-averaged over PRs: precision = matched findings / raised findings, recall = matched real issues /
 * real issues, F1 their harmonic mean (0 when both are 0). Nothing raised leaves precision null, but with
 * real issues to find its recall is 0 and so is its F1: silence finds nothing. No real issue leaves recall
 * and F1 null.
 */
export function prf(c: { raised: number; matchedFindings: number; golden: number; matchedGolden: number }): Prf {
  const precision = c.raised === 0 ? null : c.matchedFindings / c.raised;
  const recall = c.golden === 0 ? null : c.matchedGolden / c.golden;
  // Nothing raised means nothing matched: recall is 0 then, and F1 with it.
  const f1 =
    recall === null
      ? null
      : precision === null || precision + recall === 0
        ? 0
        : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}
