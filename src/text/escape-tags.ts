/**
 * Defuses untrusted text placed inside a prompt's tagged blocks: a `<` (or a lookalike: fullwidth `＜`,
 * small `﹤`) that opens something resembling one of `tags` (a name prefix, case-insensitive, with or
 * without `/` and spaces, e.g. `</findings>`, `< /FINDINGS`) is written as `&lt;`, so the text cannot
 * close its block and speak as the bot.
 */
export function escapeTags(text: string, tags: readonly string[]): string {
  const names = tags.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
  return text.replace(new RegExp(`[<＜﹤](?=\\s*\\/?\\s*(?:${names}))`, "giu"), "&lt;");
}
