import type { RefusalKind } from "../../refusals/refusal-kind.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import type { FixTurn } from "./fix-turn.js";

/**
 * A fixer commit that was not pushed: counted as a refused fix push, and recorded as a refusal (counted
 * and kept for the operator page) of `kind` with `reason`, the fixer as the one refused.
 */
export async function recordRefusedPush(
  deps: PipelineDeps,
  turn: FixTurn,
  kind: Extract<
    RefusalKind,
    | "nested_repository"
    | "gitlink"
    | "escaping_symlink"
    | "workflow_files"
    | "push_target"
    | "head_moved"
    | "push_rejected"
    | "fix_unproven"
  >,
  reason: string,
): Promise<void> {
  deps.metrics?.fixPushes.inc({ outcome: "refused" });
  await deps.refusals.refuse({
    kind,
    repositoryFullName: turn.run.repositoryFullName,
    prNumber: turn.run.prNumber,
    actor: "fixer",
    reason: `${reason}${turn.request.requestedBy ? ` (asked by ${turn.request.requestedBy})` : " (fix.auto)"}`,
  });
}
