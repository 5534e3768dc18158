import { fitGuidelines } from "../guidelines/fit-guidelines.js";
import type { Guideline } from "../guidelines/applicable-guidelines.js";

/** What the summary names of a review's guidelines: the files and globs a new session is given, and those left out. */
export function appliedGuidelines(
  guidelines: readonly Guideline[],
  maxBytes: number,
): { files: string[]; pathInstructions: string[]; cut: string[] } {
  const { given, cut } = fitGuidelines(guidelines, maxBytes);
  return {
    files: given.filter((g) => g.kind === "file").map((g) => g.name),
    pathInstructions: given.filter((g) => g.kind === "path_instructions").map((g) => g.name),
    cut: cut.map((g) => g.name),
  };
}
