import { sanitizeMarkdown } from "../../text/sanitize-markdown.js";

/** A path (or link target) as a code span in a reply. */
export function codeSpan(text: string): string {
  return `\`${sanitizeMarkdown(text).replace(/`/g, "'")}\``;
}
