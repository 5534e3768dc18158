/**
 * The reviewer's answer format (docs/architecture.md, "Reviewer answer") as the prompts spell it out: one line of example JSON
 * and the rules that go with it. Shared by the review prompt and the repair prompt.
 */
export const ANSWER_FORMAT = [
  `{"summary":"one paragraph","findings":[{"id":"NM-3","path":"src/a.ts","line":42,"end_line":44,"severity":"error|warning|info","action":"auto-fix|ask-user|no-op","title":"short","body":"why it is wrong and what to do","suggestion":"replacement text"}],"resolved":["NM-1"]}`,
  `- "id": only when restating a listed open finding. "resolved": ids of listed open findings that are fixed. "findings": [] when there is nothing to report.`,
  `- "path": relative to the repository root. "line"/"end_line": lines in the new version of the file (omit for a whole-file finding). "suggestion" (optional): the exact replacement for lines line..end_line.`,
].join("\n");
