import { checksConfigured } from "../checks/checks-policy.js";
import { proposeChecks } from "../checks/propose-checks.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import type { ReviewHead, ReviewTurn } from "./review-turn.js";

/** The root files proposeChecks reads (the rest it knows by name). */
const READ = ["package.json", "pyproject.toml", "Makefile"];

/**
 * With no `checks` configured, in an app that runs repositories' commands: a `checks` block read from the base
 * branch's tree (never the PR's), for the summary to propose. Undefined when checks are configured, when the
 * app runs nothing, or when the repository says nothing of how it is tested.
 */
export async function proposedChecks(
  deps: PipelineDeps,
  turn: ReviewTurn,
  head: ReviewHead,
): Promise<string | undefined> {
  if (deps.checks === undefined || checksConfigured(turn.ctx.config)) return undefined;
  const sha = turn.run.baseSha;
  try {
    const root = (await head.workspace.listFiles(sha)).map((f) => f.path).filter((p) => !p.includes("/"));
    const texts = new Map<string, string | undefined>();
    for (const path of READ.filter((p) => root.includes(p))) texts.set(path, await head.workspace.readFile(sha, path));
    return proposeChecks({ root, read: (path) => texts.get(path) });
  } catch (error) {
    turn.log.warn({ err: error, sha }, "the base tree could not be read for a checks proposal");
    return undefined;
  }
}
