import type { DiffLimits, LeftOutFile } from "./bounded-diff.js";
import type { RawDiffEntry } from "./raw-diff-entry.js";

const NO_BLOB = /^0+$/;

/**
 * The entries a diff must leave out to stay within `limits`, given each blob's size: a file with a side
 * over the per-file limit, then, in git's order, every file once the diff's total would pass its budget.
 * A gitlink (mode 160000) or an absent side counts nothing.
 */
export function leftOutFiles(
  entries: readonly RawDiffEntry[],
  blobSize: ReadonlyMap<string, number>,
  limits: DiffLimits,
): { entry: RawDiffEntry; file: LeftOutFile }[] {
  const sizeOf = (mode: string, blob: string) =>
    mode === "160000" || NO_BLOB.test(blob) ? 0 : (blobSize.get(blob) ?? 0);
  const out: { entry: RawDiffEntry; file: LeftOutFile }[] = [];
  let total = 0;
  for (const entry of entries) {
    const before = sizeOf(entry.oldMode, entry.oldBlob);
    const after = sizeOf(entry.newMode, entry.newBlob);
    const bytes = before + after;
    if (Math.max(before, after) > limits.maxFileBytes) {
      out.push({ entry, file: { path: entry.path, bytes, why: "file-too-large" } });
    } else if (total + bytes > limits.maxTotalBytes) {
      out.push({ entry, file: { path: entry.path, bytes, why: "diff-too-large" } });
    } else {
      total += bytes;
    }
  }
  return out;
}
