/**
 * Renders a GitHub suggested change: a fenced block with the info string `suggestion` whose
 * content replaces the commented lines when the author clicks "Commit suggestion".
 *
 * Only attach one when the comment covers exactly the lines being replaced; see `canSuggest`
 * in place-finding.ts.
 */
export { canSuggest } from "./place-finding.js";

/**
 * `replacement` is the new text of the commented lines. One trailing newline is dropped (the
 * closing fence supplies it), so `"a\nb"` and `"a\nb\n"` both mean the two lines `a` and `b`;
 * `""` means delete the lines, `"\n"` means one empty line. CRLF is written as LF.
 *
 * The fence is one backtick longer than the longest run of backticks in the replacement (at
 * least three), so replacement code containing ``` cannot close the block early.
 */
export function suggestionBlock(replacement: string): string {
  const text = replacement.replace(/\r\n/g, "\n");
  let longestRun = 0;
  for (const run of text.match(/`+/g) ?? []) longestRun = Math.max(longestRun, run.length);
  const fence = "`".repeat(Math.max(3, longestRun + 1));
  if (text === "") return `${fence}suggestion\n${fence}`;
  const content = text.endsWith("\n") ? text.slice(0, -1) : text;
  return `${fence}suggestion\n${content}\n${fence}`;
}
