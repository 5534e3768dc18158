import type { TreeChange } from "../../git/tree-change.js";

export interface PrOwnChangesInput {
  /** The PR's diff against its base when last reviewed: merge base then..last reviewed head. */
  before: readonly TreeChange[];
  /** The PR's diff against its base now: merge base now..head. */
  after: readonly TreeChange[];
  /** What changed from the last reviewed head to the head: last..head. */
  sinceLast: readonly TreeChange[];
}

/**
 * The files the pull request's own changes touched since the last review, when its base moved in
 * between (the base branch merged in, or a rebase onto a newer base). The PR's diff then and now are
 * compared file by file: a file counts when its (base side, PR side) pair — or its presence — differs
 * between the two, and its content at the head differs from the last reviewed head.
 *
 * - changed only by the base: in neither PR diff (the PR's side equals the base's) → left out;
 * - changed by the PR since the last review: its PR side differs → counts;
 * - changed by both: its base side differs and the head moved → counts;
 * - a PR change the base took over verbatim: gone from the PR diff, but the head did not move → left out.
 *
 * Paths come back sorted (by code unit), each once.
 */
export function prOwnChanges(input: PrOwnChangesInput): string[] {
  const before = byPath(input.before);
  const after = byPath(input.after);
  const own = new Set<string>();
  for (const { path } of input.sinceLast) {
    if (before.get(path) !== after.get(path)) own.add(path);
  }
  return [...own].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Each path's (base side, PR side) pair as one comparable key. */
function byPath(changes: readonly TreeChange[]): Map<string, string> {
  return new Map(changes.map((c) => [c.path, `${c.oldMode} ${c.oldBlob} ${c.newMode} ${c.newBlob}`]));
}
