import type { BoundedDiff } from "../../git/bounded-diff.js";
import { limitDiff } from "../workspace/limit-diff.js";

/**
 * A diff as the workspace read it, cut to review.max_diff_bytes: what the prompt shows, every file it
 * leaves out (too large to read, then over the byte budget), and those over the budget alone.
 */
export function fitReviewDiff(
  read: BoundedDiff,
  maxBytes: number,
): { diff: string; omittedFiles: string[]; overBudget: string[] } {
  const limited = limitDiff(read.text, maxBytes);
  return {
    diff: limited.diff,
    omittedFiles: [...read.leftOut.map((f) => f.path), ...limited.omittedFiles],
    overBudget: limited.omittedFiles,
  };
}
