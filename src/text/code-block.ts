/** Multi-line tool output (git, the agent) shown as it was, in a fence it cannot close. */
export function codeBlock(text: string, max = 4000, language = "text"): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${text.length > max ? `${text.slice(0, max)}\n…` : text}\n${fence}`;
}
