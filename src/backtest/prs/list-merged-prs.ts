import type { CloneGit } from "../clone/clone-git.js";

/** A merged PR found in the history: base = the merge's first parent, head = its second. */
export interface MergedPr {
  baseSha: string;
  headSha: string;
  /** From `Merge pull request #N …` (or a trailing `(#N)`), when the subject says. */
  number?: number;
  title: string;
}

/**
 * The merge commits on `branch`'s first-parent history, newest first (at most `limit`): each one a PR,
 * base = first parent, head = second parent. Octopus merges are skipped (no single head).
 */
export async function listMergedPrs(git: CloneGit, branch: string, limit?: number): Promise<MergedPr[]> {
  const out = await git([
    "log",
    "--first-parent",
    "--merges",
    ...(limit === undefined ? [] : [`--max-count=${limit}`]),
    "--format=%H%x00%P%x00%s%x00%b%x1e",
    branch,
    "--",
  ]);
  const prs: MergedPr[] = [];
  for (const record of (out ?? "").split("\x1e")) {
    const [, parents = "", subject = "", body = ""] = record.replace(/^\n/, "").split("\0");
    const [baseSha, headSha, ...more] = parents.trim().split(" ");
    if (!baseSha || !headSha || more.length > 0) continue;
    const number = /Merge pull request #(\d+)/.exec(subject)?.[1] ?? /\(#(\d+)\)\s*$/.exec(subject)?.[1];
    const github = /^Merge pull request #\d+/.test(subject);
    const title = (github ? body.split("\n").find((l) => l.trim() !== "") : undefined) ?? subject;
    prs.push({ baseSha, headSha, number: number === undefined ? undefined : Number(number), title: title.trim() });
  }
  return prs;
}
