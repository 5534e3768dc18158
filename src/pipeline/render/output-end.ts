/** How much of a command's output a comment, reply or prompt shows: its last lines, at most this many. */
const TAIL_LINES = 40;
const TAIL_CHARS = 3000;

/** The end of a command's output (where a test runner prints its failures), bounded by lines and characters. */
export function outputEnd(output: string): string {
  const lines = output.trimEnd().split("\n");
  let tail = lines.slice(-TAIL_LINES).join("\n");
  if (tail.length > TAIL_CHARS) tail = tail.slice(-TAIL_CHARS);
  return tail.length < output.trimEnd().length ? `…\n${tail}` : tail;
}
