import type { GitWorkspace } from "../../git/git-workspace.js";
import { inlineCode } from "../../text/sanitize-markdown.js";

const SHOWN = 10;

/**
 * The review's line about the changed files `ignore.paths` left out of the range reviewed (lockfiles and
 * generated files by default), or undefined when it left none out. `paths`: the range's files, when the
 * review reads only some (after a base merge).
 */
export async function ignoredPathsNote(
  workspace: Pick<GitWorkspace, "changedFiles">,
  range: { from: string; headSha: string; paths?: readonly string[] },
  globs: readonly string[],
): Promise<string | undefined> {
  if (globs.length === 0 || range.paths?.length === 0) return undefined;
  const [all, kept] = await Promise.all([
    workspace.changedFiles(range.from, range.headSha),
    workspace.changedFiles(range.from, range.headSha, { excludeGlobs: globs }),
  ]);
  const keptPaths = new Set(kept.map((f) => f.path));
  const only = range.paths && new Set(range.paths);
  const ignored = all.map((f) => f.path).filter((p) => !keptPaths.has(p) && (!only || only.has(p)));
  if (ignored.length === 0) return undefined;
  const shown = ignored.slice(0, SHOWN).map(inlineCode).join(", ");
  const more = ignored.length > SHOWN ? `, and ${ignored.length - SHOWN} more` : "";
  const n = ignored.length;
  return `${n} file${n === 1 ? " was" : "s were"} left out of the review by \`ignore.paths\`: ${shown}${more}.`;
}
