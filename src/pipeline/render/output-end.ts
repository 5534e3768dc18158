/** How much of a command's output a comment, reply or prompt shows: its last lines, at most this many. */
const TAIL_LINES = 40;
const TAIL_CHARS = 3000;

/** The end of a command's output (where a test runner prints its failures), bounded by lines and characters. */
export function outputEnd(output: string, maxLines = TAIL_LINES, maxChars = TAIL_CHARS): string {
  const lines = output.trimEnd().split("\n");
  let tail = lines.slice(-maxLines).join("\n");
  if (tail.length > maxChars) tail = tail.slice(-maxChars);
  return tail.length < output.trimEnd().length ? `…\n${tail}` : tail;
}
