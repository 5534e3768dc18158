import type { Finding } from "../../db/schema.js";
import { findingId } from "../../domain/finding-id.js";
import type { BacktestFinding } from "./backtest-finding.js";

/**
 * A finding of the replay's ledger as the backtest scores it: where the app placed it (inline at the place
 * of its comment, in the review's body, or kept as a note) and what the app saw of its reproducer.
 */
export function ledgerFinding(
  f: Finding,
  /** The inline comments the recording GitHub client kept, by id. */
  inline: ReadonlyMap<number, { path: string; line: number }>,
): BacktestFinding {
  const comment = f.commentId === null ? undefined : inline.get(f.commentId);
  return {
    id: findingId(f.number),
    path: comment?.path ?? f.path,
    line: comment?.line ?? f.line,
    endLine: f.endLine,
    severity: f.severity,
    action: f.action,
    title: f.title,
    body: f.body,
    status: f.status,
    placement: comment ? "inline" : f.status === "note" && f.reviewId === null ? "note" : "body",
    ...(f.reproduction !== null ? { reproduction: f.reproduction } : {}),
  };
}
