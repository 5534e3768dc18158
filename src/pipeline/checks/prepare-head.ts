// The checks room of the pipeline: running the repository's own commands for a job — a head's scratch
// checkout and its setup (cached: the base branch's own setup for PRs whose setup inputs are the same as the
// base's, a run's own otherwise), its checks, the reviewer's reproducers — and recording each run as an
// execution. It imports job, sessions and workspace of the pipeline, and the checks edge (src/checks);
// review and fix call it.
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import type { RunContext } from "../job/run-context.js";
import { checksConfigured } from "./checks-policy.js";
import type { NotPrepared, PrepareFor, PreparedHead } from "./prepared-head.js";
import { setUp } from "./set-up.js";

/**
 * A head's scratch checkout (the commit's tree, no `.git`) with its setup stacked over it; or why nothing of
 * the repository's can run for it. The caller disposes of it when its commands are done.
 */
export async function prepareHead(
  deps: PipelineDeps,
  ctx: RunContext,
  sha: string,
  at: PrepareFor,
): Promise<PreparedHead | NotPrepared> {
  if (!checksConfigured(ctx.config)) return { unavailable: "no `checks` in .github/no-mistakes.yml" };
  const checks = deps.checks;
  if (!checks) return { unavailable: "this app does not run repositories' commands" };
  const refusal = checks.runner.unavailable();
  if (refusal !== undefined) return { unavailable: refusal };
  const workspace = deps.workspace(ctx.run);
  const scratch = join(checks.scratchDir, `run-${ctx.run.id}-${sha.slice(0, 12)}-${randomBytes(4).toString("hex")}`);
  const dispose = () => rm(scratch, { recursive: true, force: true });
  try {
    await workspace.exportTree(sha, scratch);
    const setup = await setUp(deps, ctx, { workspace, sha, scratch, at });
    return { sha, scratch, layers: setup.tree ? [setup.tree] : [], setup: setup.outcome, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}
