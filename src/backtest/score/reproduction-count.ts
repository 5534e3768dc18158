/** Reproduced findings, or the rest: a reproducer that did not fail, one that broke, or none. */
export type Reproduction = "reproduced" | "unreproduced";

/** One PR's raised findings of one reproduction: how many, how many matched a real issue, and how many real issues they matched. */
export interface ReproductionCount {
  raised: number;
  matchedFindings: number;
  matchedGolden: number;
}

/** Which side of the split a finding is on. */
export function reproductionOf(f: { reproduction?: string }): Reproduction {
  return f.reproduction === "reproduced" ? "reproduced" : "unreproduced";
}
