import { inlineCode } from "./sanitize-markdown.js";

export const SEVERITY_ICON: Record<string, string> = { error: "🔴", warning: "🟡", info: "🔵" };

export const STATUS_LABEL: Record<string, string> = {
  open: "open",
  "fix-pushed": "fix pushed",
  fixed: "resolved",
  dismissed: "dismissed",
  withdrawn: "withdrawn",
  deferred: "deferred, not blocking",
  outdated: "outdated",
};

export const SUMMARY_MARKER = "<!-- no-mistakes:summary -->";

/** Hidden in each inline comment so a retried turn recognises what it already posted. */
export function findingMarker(id: string): string {
  return `<!-- no-mistakes:${id} -->`;
}

/** The marker as the bot writes it: on the comment's last line, after everything the agent wrote. */
export function findingMarkerPattern(): RegExp {
  return /\n<!-- no-mistakes:(NM-\d+) -->\s*$/;
}

export function shortSha(sha: string): string {
  return sha.slice(0, 7);
}

/** `path:line` as an inert code span (paths come from the PR). In a table, escape its pipes. */
export function where(path: string | null, line: number | null, endLine?: number | null): string {
  if (!path) return "—";
  if (!line) return inlineCode(path);
  return inlineCode(endLine && endLine > line ? `${path}:${line}-${endLine}` : `${path}:${line}`);
}

/** Hidden in each review body: which head it reviewed. */
export function reviewMarker(headSha: string): string {
  return `<!-- no-mistakes:review:${headSha} -->`;
}

/** Hidden in the bot's answer to a comment (a thread reply, `ask`): a retried job recognises it already answered. */
export function answerMarker(commentId: number): string {
  return `<!-- no-mistakes:answer:${commentId} -->`;
}
