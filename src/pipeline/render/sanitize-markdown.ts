/**
 * Agent text echoes untrusted PR content: it must not forge our hidden markers, open raw HTML,
 * or ping people. Returns markdown safe to post.
 */
export function sanitizeMarkdown(text: string): string {
  return text
    .replace(/<!--/g, "&lt;!--")
    .replace(/-->/g, "--&gt;")
    .replace(/(^|[^\w`])@(?=[A-Za-z0-9-]+)/g, "$1@\u200b");
}

/** A single-line, pipe-safe table cell. */
export function tableCell(text: string, max = 120): string {
  const one = sanitizeMarkdown(text).replace(/\s+/g, " ").replace(/\|/g, "\\|").trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}
