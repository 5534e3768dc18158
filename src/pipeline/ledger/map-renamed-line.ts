/**
 * Where an old-side line of a file lands on the new side, given the zero-context diff between the
 * two (`git diff -M -U0 old new -- oldPath newPath`): shifted by the hunks before it, or undefined
 * when a hunk removed or rewrote it (the line did not survive).
 */
export function mapRenamedLine(diff: string, line: number): number | undefined {
  let shift = 0;
  for (const m of diff.matchAll(/^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/gm)) {
    const oldStart = Number(m[1]);
    const oldCount = m[2] === undefined ? 1 : Number(m[2]);
    const newCount = m[4] === undefined ? 1 : Number(m[4]);
    // a pure insertion (-a,0) sits after old line a
    const firstAfter = oldCount === 0 ? oldStart + 1 : oldStart + oldCount;
    if (line < (oldCount === 0 ? oldStart + 1 : oldStart)) break;
    if (oldCount > 0 && line < firstAfter) return undefined;
    shift += newCount - oldCount;
  }
  return line + shift;
}
