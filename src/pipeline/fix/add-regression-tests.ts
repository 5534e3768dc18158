import { posix } from "node:path";
import type { Finding } from "../../db/schema.js";
import { findingId } from "../../domain/finding-id.js";
import { reproducerProblem } from "../checks/reproducer-files.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import type { BranchTip, FixCommit, FixTurn, RegressionTests } from "./fix-turn.js";
import { neutralizeAgentText } from "../../text/neutralize-agent-text.js";
import { isWorkflowPath } from "./push-target.js";

/** What the fix's tree holds where a regression test would go. */
export interface TreeAt {
  /** Every regular file's path, with its content when it is a path a reproducer names. */
  files: ReadonlyMap<string, string | undefined>;
  /** Every symbolic link's path. */
  links: ReadonlySet<string>;
}

/** A file to add, and the finding whose reproducer it is. */
export interface PlannedFile {
  path: string;
  content: string;
  finding: Finding;
}

/**
 * `fix.add_regression_tests`: the reproducers that now pass (the gate ran them, their files over this very
 * tree) are added to the bot's commit by the app, never by the model. A file is left out, and the reply says
 * why, where the fix could not be pushed with it or would change what the gate saw: a workflow file, a path
 * in `.git` or out of the tree, through a link, in place of a file or folder of the repository, or one another
 * reproducer adds with other content. The commit is remade with the files (same parent); nothing else changes.
 */
export async function addRegressionTests(
  deps: PipelineDeps,
  turn: FixTurn,
  tip: BranchTip,
  commit: FixCommit,
): Promise<FixCommit> {
  const passing = commit.proof?.passing ?? [];
  if (!turn.ctx.config.fix.add_regression_tests || passing.length === 0) return commit;
  const { workspace } = tip;
  const [files, links] = await Promise.all([workspace.listFiles(commit.sha), workspace.symlinksAt(commit.sha)]);
  const named = new Set(passing.flatMap(({ finding }) => finding.reproducer?.files.map((f) => clean(f.path)) ?? []));
  const tree: TreeAt = {
    files: new Map(
      await Promise.all(
        files.map(
          async (f) => [f.path, named.has(f.path) ? await workspace.readFile(commit.sha, f.path) : undefined] as const,
        ),
      ),
    ),
    links: new Set(links.keys()),
  };
  const { add, leftOut } = planRegressionTests(
    passing.map((p) => p.finding),
    tree,
  );
  const tests: RegressionTests = { added: add.map((f) => f.path), leftOut };
  if (leftOut.length) turn.log.warn({ sha: commit.sha, leftOut }, "reproducer files left out of the regression tests");
  if (add.length === 0) return { ...commit, regressionTests: tests };
  const note = add.map((f) => `- ${f.path} (${findingId(f.finding.number)})`).join("\n");
  const message = `${commit.message}\n\nRegression tests, the findings' reproducers:\n${neutralizeAgentText(note)}`;
  const sha = await workspace.commitWithFiles(commit.sha, add, message, await turn.ctx.github.botIdentity());
  turn.log.info({ sha, added: tests.added }, "regression tests added to the fix");
  return { ...commit, sha, message, regressionTests: tests };
}

/** Which reproducer files go into the commit, and which are left out with why. Pure. */
export function planRegressionTests(
  findings: readonly Finding[],
  tree: TreeAt,
): { add: PlannedFile[]; leftOut: { path: string; why: string }[] } {
  const add: PlannedFile[] = [];
  const leftOut: { path: string; why: string }[] = [];
  for (const finding of findings)
    for (const file of finding.reproducer?.files ?? []) {
      const path = clean(file.path);
      const taken = add.find((f) => f.path === path);
      const why = taken
        ? taken.content === file.content
          ? "same"
          : "another reproducer adds it with other content"
        : placeProblem(path, file, tree);
      if (why === undefined) add.push({ path, content: file.content, finding });
      else if (why !== "same") leftOut.push({ path: file.path, why });
    }
  return { add, leftOut };
}

/** Why `file` cannot be added at `path` of the tree; "same" when the tree already holds it as it is. */
function placeProblem(path: string, file: { path: string; content: string }, tree: TreeAt): string | undefined {
  const problem = reproducerProblem({ files: [file], command: "-" });
  if (problem !== undefined) return problem.replace(/^`[^`]*` is /, "");
  if (isWorkflowPath(path)) return "a workflow file";
  const parts = path.split("/");
  const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join("/"));
  if (prefixes.some((p) => tree.links.has(p))) return "a symbolic link is in its way";
  if (prefixes.slice(0, -1).some((p) => tree.files.has(p))) return "a file of the repository is in its way";
  if (tree.files.has(path))
    return tree.files.get(path) === file.content ? "same" : "it would replace a file of the repository";
  if ([...tree.files.keys(), ...tree.links].some((p) => p.startsWith(`${path}/`)))
    return "a folder of the repository is there";
  return undefined;
}

/** A reproducer's path as the gate wrote it over the checkout. */
function clean(path: string): string {
  return posix.normalize(path);
}
