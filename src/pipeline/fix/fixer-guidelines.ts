import { GitError } from "../../git/git-error.js";
import { digestsOf } from "../guidelines/digests-of.js";
import { applicableGuidelines } from "../guidelines/applicable-guidelines.js";
import { readGuidelineDigests } from "../guidelines/read-guideline-digests.js";
import { renderGuidelinesBlock } from "../guidelines/render-guidelines-block.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import { BASE_REF } from "../workspace/prepare-workspace.js";
import type { BranchTip, ChosenFindings, FixTurn } from "./fix-turn.js";

/** The fixer's guidelines paragraphs (one for its stored session, one for a new one), and what each gives. */
export interface FixerGuidelines {
  resumed: string | undefined;
  fresh: string | undefined;
  /** What the session will have been given after the turn (key → digest), by whether it was resumed. */
  given: { resumed: Record<string, string>; fresh: Record<string, string> };
}

/**
 * The maintainers' guidelines for the paths of the findings the fixer is asked to fix, read from the base
 * branch (as the review fetched it, or fetched now), never from the branch the fixer works on. A resumed
 * session gets only those it was not given. Undefined when none apply; a base that cannot be read is
 * logged and the fix goes on without guidelines.
 */
export async function fixerGuidelines(
  deps: PipelineDeps,
  turn: FixTurn,
  findings: ChosenFindings,
  tip: BranchTip,
): Promise<FixerGuidelines | undefined> {
  const { config } = turn.ctx;
  if (!config.guidelines.enabled && config.path_instructions.length === 0) return undefined;
  const baseSha = await baseCommit(deps, turn, tip);
  if (baseSha === undefined) return undefined;
  const paths = [...new Set(findings.chosen.flatMap((f) => (f.path ? [f.path] : [])))];
  const list = await applicableGuidelines(tip.workspace, baseSha, paths, config);
  if (list.length === 0) return undefined;
  const peek = await deps.sessions.peek(turn.run.id, "fixer", config);
  const memory = peek.memory as { guidelines?: unknown } | undefined;
  const seen = readGuidelineDigests(memory?.guidelines) ?? {};
  const maxBytes = config.guidelines.max_bytes;
  const resumed = renderGuidelinesBlock(list, { maxBytes, seen });
  const fresh = renderGuidelinesBlock(list, { maxBytes });
  return {
    resumed: resumed.block,
    fresh: fresh.block,
    given: { resumed: { ...seen, ...digestsOf(resumed.given) }, fresh: digestsOf(fresh.given) },
  };
}

/** The base branch's commit in the run's workspace: as the review fetched it, or fetched now. */
async function baseCommit(deps: PipelineDeps, turn: FixTurn, tip: BranchTip): Promise<string | undefined> {
  const { run, log } = turn;
  try {
    return await tip.workspace.revParse(BASE_REF);
  } catch (error) {
    if (!(error instanceof GitError) || error.kind !== "not-found") throw error;
  }
  try {
    const token = deps.gitToken(run.cloneUrl, await turn.ctx.github.installationToken());
    await tip.workspace.fetch(run.cloneUrl, [`+refs/heads/${run.baseRef}:${BASE_REF}`], { token });
    return await tip.workspace.revParse(BASE_REF);
  } catch (error) {
    log.warn({ err: error }, "the base branch could not be fetched; the fixer gets no guidelines");
    return undefined;
  }
}
