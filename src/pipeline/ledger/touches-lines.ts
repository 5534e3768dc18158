/**
 * Whether a zero-context unified diff of one file (`git diff -U0 old new -- path`) changes any of the
 * old version's lines `line..endLine` — the evidence that a finding's code was actually worked on.
 * A file-level finding (no line) counts any change to the file. A pure insertion (`-a,0`) touches the
 * range when it lands inside it or right at its edge.
 */
export function touchesLines(diff: string, line: number | null, endLine: number | null): boolean {
  const hunks = [...diff.matchAll(/^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/gm)].map((m) => ({
    start: Number(m[1]),
    count: m[2] === undefined ? 1 : Number(m[2]),
  }));
  const fileGone = /^(deleted file mode|rename from|Binary files )/m.test(diff);
  if (hunks.length === 0) return fileGone;
  if (line === null) return true;
  const first = line;
  const last = endLine !== null && endLine > line ? endLine : line;
  return hunks.some(({ start, count }) =>
    count === 0 ? start >= first - 1 && start <= last : start <= last && start + count - 1 >= first,
  );
}
