import type { PipelineDeps } from "../job/pipeline-deps.js";

/** A fixer commit that was not pushed: one refused push, and why. */
export function countRefusedPush(
  deps: PipelineDeps,
  kind:
    | "nested_repository"
    | "gitlink"
    | "escaping_symlink"
    | "workflow_files"
    | "push_target"
    | "head_moved"
    | "push_rejected",
): void {
  deps.metrics?.fixPushes.inc({ outcome: "refused" });
  deps.metrics?.refusals.inc({ kind });
}
