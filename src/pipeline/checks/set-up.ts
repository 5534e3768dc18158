import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { setupCacheKey, type ExecutionResult, type SetupScope } from "../../checks/index.js";
import type { GitWorkspace } from "../../git/git-workspace.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import type { RunContext } from "../job/run-context.js";
import type { PrepareFor, SetupOutcome } from "./prepared-head.js";
import { checkOutcome, recordExecution } from "./record-execution.js";
import { setupScript, setupTimeoutMs } from "./setup-script.js";
import { sameInputs, setupInputs } from "./setup-inputs.js";

interface SetUpAt {
  workspace: GitWorkspace;
  sha: string;
  scratch: string;
  at: PrepareFor;
}

/**
 * The head's setup: from the cache, or run now with only the allowed registries reachable and saved there.
 * A PR whose setup inputs (lockfiles, manifests) are the base's reads the base's cache, which only a run on
 * the base commit's own tree fills; any other PR gets one of its own, filled from its head.
 */
export async function setUp(
  deps: PipelineDeps,
  ctx: RunContext,
  on: SetUpAt,
): Promise<{ tree?: string; outcome: SetupOutcome }> {
  const commands = ctx.config.checks.setup;
  if (commands.length === 0) return { outcome: { status: "none" } };
  const checks = deps.checks!;
  const globs = ctx.config.checks.setup_inputs;
  const head = await setupInputs(on.workspace, on.sha, globs);
  const fromBase = sameInputs(head, await setupInputs(on.workspace, ctx.run.baseSha, globs));
  const scope: SetupScope = fromBase ? "base" : `run-${ctx.run.id}`;
  const key = setupCacheKey(
    commands.map((c) => `${c.timeout} ${c.run}`),
    head.map((f) => ({ path: f.path, content: f.id })),
  );
  const command = setupScript(commands);
  const record = {
    runId: ctx.run.id,
    turnId: on.at.turnId,
    headSha: on.sha,
    kind: "setup" as const,
    phase: on.at.phase,
    name: "setup",
    command,
  };
  const found = await checks.cache.find(ctx.run.repositoryId, scope, key);
  if (found) {
    // A reused setup's record: nothing ran.
    const nothingRan = { exitCode: 0, signal: null, timedOut: false, durationMs: 0, output: "", outputDigest: "" };
    await recordExecution(deps, { ...record, outcome: "passed", cached: true }, nothingRan);
    return { tree: found.tree, outcome: { status: "cached", scope } };
  }
  let result: ExecutionResult | undefined;
  const filled = await checks.cache.fill(ctx.run.repositoryId, scope, key, async (tree) => {
    result = await runSetup(deps, on, fromBase ? ctx.run.baseSha : undefined, command, commands, tree);
    return checkOutcome(result) === "passed";
  });
  if (result) await recordExecution(deps, { ...record, outcome: checkOutcome(result) }, result);
  if (!filled) return { outcome: { status: "failed", detail: setupFailure(result) } };
  return { tree: filled.tree, outcome: { status: "ran", scope } };
}

/** Runs the setup on the base commit's own tree (exported for it) or on the head's scratch checkout. */
async function runSetup(
  deps: PipelineDeps,
  on: SetUpAt,
  baseSha: string | undefined,
  command: string,
  commands: readonly { timeout: number }[],
  saveTo: string,
): Promise<ExecutionResult> {
  const checks = deps.checks!;
  const source =
    baseSha === undefined
      ? on.scratch
      : join(checks.scratchDir, `base-${baseSha.slice(0, 12)}-${randomBytes(4).toString("hex")}`);
  try {
    if (baseSha !== undefined) await on.workspace.exportTree(baseSha, source);
    return await checks.runner.run({
      kind: "setup",
      workspace: source,
      command,
      timeoutMs: setupTimeoutMs(commands),
      registries: checks.registries,
      saveTo,
    });
  } finally {
    if (baseSha !== undefined) await rm(source, { recursive: true, force: true });
  }
}

/** Why a setup failed, in one line with the end of its output. */
function setupFailure(result: ExecutionResult | undefined): string {
  if (!result) return "another job's setup of the same inputs failed";
  const why =
    result.error ?? result.limit ?? (result.timedOut ? "it passed its time limit" : `it exited ${result.exitCode}`);
  const refused = result.egress?.refused.length ? ` (registries refused: ${result.egress.refused.join(", ")})` : "";
  return `${why}${refused}`;
}
