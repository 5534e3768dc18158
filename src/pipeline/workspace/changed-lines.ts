import { parseDiff } from "../../github/parse-diff.js";

/**
 * The lines a change touched, per path (new side): a set of line numbers, or `"file"` when the file
 * changed as a whole (added, deleted, binary). A path with no entry did not change (a pure rename or a
 * mode change leaves none).
 */
export type ChangedLines = ReadonlyMap<string, ReadonlySet<number> | "file">;

/**
 * Reads a zero-context unified diff (`git diff -U0 -M from to`) into the lines it changed. A pure
 * deletion (`+b,0`) marks the lines on either side of it (b and b+1): the code around a removal changed.
 */
export function changedLines(diff: string): ChangedLines {
  const out = new Map<string, Set<number> | "file">();
  for (const file of parseDiff(diff).files.values()) {
    if (file.binary || file.status === "added" || file.status === "deleted") {
      out.set(file.path, "file");
      continue;
    }
    const lines = new Set<number>();
    for (const hunk of file.hunks) {
      if (hunk.newLines === 0) {
        if (hunk.newStart > 0) lines.add(hunk.newStart);
        lines.add(hunk.newStart + 1);
      } else for (let l = hunk.newStart; l < hunk.newStart + hunk.newLines; l++) lines.add(l);
    }
    if (lines.size > 0) out.set(file.path, lines);
  }
  return out;
}

/**
 * The lines both changes touched: with `sinceLast` the change since the last reviewed head and `own` the
 * pull request's diff against its base, what the PR's own changes did since that review. A line the base
 * changed (a merge of the base, a rebase) is in the first and not the second: it is left out.
 */
export function intersectChanges(sinceLast: ChangedLines, own: ChangedLines): ChangedLines {
  const out = new Map<string, ReadonlySet<number> | "file">();
  for (const [path, a] of sinceLast) {
    const b = own.get(path);
    if (b === undefined) continue;
    if (a === "file") out.set(path, b);
    else if (b === "file") out.set(path, a);
    else {
      const both = new Set([...a].filter((l) => b.has(l)));
      if (both.size > 0) out.set(path, both);
    }
  }
  return out;
}

/** Whether lines `line..endLine` of `path` (the whole file when `line` is absent) include a changed one. */
export function touchesChanged(
  changed: ChangedLines,
  path: string,
  line?: number | null,
  endLine?: number | null,
): boolean {
  const entry = changed.get(path);
  if (entry === undefined) return false;
  if (entry === "file" || line === undefined || line === null) return true;
  const last = endLine !== undefined && endLine !== null && endLine > line ? endLine : line;
  for (let l = line; l <= last; l++) if (entry.has(l)) return true;
  return false;
}
