/** Text on one line: every run of whitespace (newlines included) a single space, trimmed. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
