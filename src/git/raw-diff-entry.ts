/**
 * One entry of `git diff --raw -z --no-abbrev`: the modes and blob ids of both sides, the status letter
 * and the path (with rename detection, `oldPath` for a rename or copy). An absent side has mode
 * "000000" and the all-zero id.
 */
export interface RawDiffEntry {
  path: string;
  oldPath?: string;
  oldMode: string;
  newMode: string;
  oldBlob: string;
  newBlob: string;
  status: string;
}

/** Reads `git diff --raw -z --no-abbrev` output (with or without rename detection). */
export function parseRawDiff(stdout: string): RawDiffEntry[] {
  const fields = stdout.split("\0");
  const entries: RawDiffEntry[] = [];
  for (let i = 0; i + 1 < fields.length;) {
    // ":<old mode> <new mode> <old blob> <new blob> <status>" then one path, or two for R and C
    const [oldMode = "", newMode = "", oldBlob = "", newBlob = "", status = ""] = fields[i]!.slice(1).split(" ");
    if (status.startsWith("R") || status.startsWith("C")) {
      entries.push({ oldPath: fields[i + 1]!, path: fields[i + 2] ?? "", oldMode, newMode, oldBlob, newBlob, status });
      i += 3;
    } else {
      entries.push({ path: fields[i + 1]!, oldMode, newMode, oldBlob, newBlob, status });
      i += 2;
    }
  }
  return entries;
}
