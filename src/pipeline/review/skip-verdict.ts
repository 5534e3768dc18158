import type { FailOn } from "../ledger/blocking-findings.js";
import { shortSha } from "../../text/labels.js";
import type { SkipReason } from "./skip-reason.js";

/** Where the PR stands when one of its heads is skipped: what the ledger holds from earlier reviews. */
export interface SkipStanding {
  /** Open findings at or above `review.fail_on`. */
  blocking: number;
  failOn: FailOn;
  /** The last head a review looked at; null when none was reviewed. */
  lastReviewedSha: string | null;
}

/** What a skipped head's check run says: its conclusion, title, and why (markdown). */
export interface SkipVerdict {
  conclusion: "neutral" | "failure";
  title: string;
  detail: string;
}

/**
 * A skipped head never reports better than the PR stands (GitHub counts neutral as passing a required
 * check): open blocking findings keep it failing; otherwise it passes (neutral) only when the rule judged
 * who the PR's author is — a title, a branch, a label, a draft or a pause says nothing about code no one
 * reviewed, so the head fails until it is reviewed.
 */
export function skipVerdict(skip: SkipReason, standing: SkipStanding): SkipVerdict {
  const { blocking, failOn, lastReviewedSha } = standing;
  if (blocking > 0) {
    const findings = `${blocking} finding${blocking === 1 ? "" : "s"}`;
    return {
      conclusion: "failure",
      title: `Review skipped · ${findings} still open`,
      detail: `The check still fails: ${findings} from earlier reviews ${blocking === 1 ? "is" : "are"} open at or above \`${failOn}\` (\`review.fail_on\`), and skipping this head resolves nothing.`,
    };
  }
  if (skip.judgesAuthor)
    return {
      conclusion: "neutral",
      title: "Review skipped",
      detail: `Nothing open fails the check, and \`${skip.rule}\` judges who wrote the PR, so the check is neutral.`,
    };
  const before =
    lastReviewedSha === null
      ? "No review has looked at this PR yet"
      : `The last review (${shortSha(lastReviewedSha)}) left nothing failing, but this head is not reviewed`;
  return {
    conclusion: "failure",
    title: "Review skipped · not reviewed",
    detail: `${before}, and \`${skip.rule}\` does not judge who wrote it: the check fails until a review passes.`,
  };
}
