/**
 * The reviewer's answer format (docs/architecture.md, "Reviewer answer") as the prompts spell it out: one line of example JSON
 * and the rules that go with it. Shared by the review prompt and the repair prompt.
 */
export const ANSWER_FORMAT = [
  `{"summary":"one paragraph","findings":[{"id":"NM-3","path":"src/a.ts","line":42,"end_line":44,"severity":"error|warning|info","action":"auto-fix|ask-user|no-op","title":"short","body":"why it is wrong and what to do","suggestion":"replacement text"}],"resolved":["NM-1"]}`,
  `- "id": only when restating a listed open finding. "resolved": ids of listed open findings that are fixed. "findings": [] when there is nothing to report.`,
  `- "path": relative to the repository root. "line"/"end_line": lines in the new version of the file (omit for a whole-file finding). "suggestion" (optional): the exact replacement for lines line..end_line.`,
].join("\n");

/** When the repository runs reviewers' reproducers (`verify.reproducers` with `checks`): their time limit and what becomes of an error none reproduces. */
export interface ReproducersAsked {
  timeoutSeconds: number;
  blocking: "demote" | "keep" | "drop";
}

const UNREPRODUCED_ERROR: Record<ReproducersAsked["blocking"], string> = {
  demote: " An error without a reproducer that fails is posted as an unverified warning.",
  keep: "",
  drop: " An error without a reproducer that fails is not posted.",
};

/** The answer format, with a finding's `reproducer` when the repository runs them. */
export function answerFormat(reproducers: ReproducersAsked | undefined): string {
  return reproducers ? `${ANSWER_FORMAT}\n${reproducerRule(reproducers)}` : ANSWER_FORMAT;
}

/** The `reproducer` field of a finding: what it is, how the app runs it, and what its outcome does. */
export function reproducerRule(asked: ReproducersAsked): string {
  return (
    `- "reproducer" (optional; give one only when you can): a test that fails on this head because of the defect and passes once it is fixed, as {"files":[{"path":"test/x.test.js","content":"…"}],"command":"node --test test/x.test.js","expect":"text its failing output holds (optional)"}. ` +
    `The app, not you, adds the files and runs the command in the repository root after the repository's setup, with no network, within ${asked.timeoutSeconds} s. ` +
    `A finding whose reproducer passes is not posted.${UNREPRODUCED_ERROR[asked.blocking]}`
  );
}
