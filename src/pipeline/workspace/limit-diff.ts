/**
 * Keeps whole files of a unified diff, in order, while they fit `maxBytes`; the rest are named so the
 * review can say it is partial. A single file larger than the budget is left out, not cut mid-hunk.
 */
export function limitDiff(diff: string, maxBytes: number): { diff: string; omittedFiles: string[] } {
  if (Buffer.byteLength(diff) <= maxBytes) return { diff, omittedFiles: [] };
  const files = diff.split(/^(?=diff --git )/m).filter((chunk) => chunk.length > 0);
  const kept: string[] = [];
  const omittedFiles: string[] = [];
  let used = 0;
  for (const chunk of files) {
    const size = Buffer.byteLength(chunk);
    if (used + size <= maxBytes) {
      kept.push(chunk);
      used += size;
    } else {
      omittedFiles.push(/^diff --git a\/.* b\/(.*)$/m.exec(chunk)?.[1] ?? "(unknown file)");
    }
  }
  return { diff: kept.join(""), omittedFiles };
}
