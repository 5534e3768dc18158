import type { LearningLine } from "./learning-line.js";

/** Where the file says how far its decisions go (an HTML comment: not shown when rendered). */
const LEARNED_UP_TO = /<!-- no-mistakes learned up to (\S+) -->/;

const HEADER = [
  "# Learnings",
  "",
  "Decisions people with write access made on no-mistakes' review findings in this repository, one per line, each naming who decided and linking where.",
  "`/no-mistakes learn` proposes new lines as a pull request; edit or delete any line before merging it.",
  "Once merged, the reviewer and the fixer read this file as one of the maintainers' guidelines.",
  "",
].join("\n");

/** The newest decision time the file records, if any. */
export function learnedUpTo(text: string | undefined): Date | undefined {
  const found = LEARNED_UP_TO.exec(text ?? "")?.[1];
  const at = found ? new Date(found) : undefined;
  return at && !Number.isNaN(at.getTime()) ? at : undefined;
}

/**
 * The learnings file with `lines` appended (a new file starts with a header saying what it is), and
 * how far its decisions now go: plain markdown, one decision per line.
 */
export function renderLearnings(existing: string | undefined, lines: LearningLine[], upTo: Date): string {
  const marker = `<!-- no-mistakes learned up to ${upTo.toISOString()} -->`;
  const base = existing?.trim() ? existing : `${HEADER}\n${marker}\n`;
  const marked = LEARNED_UP_TO.test(base) ? base.replace(LEARNED_UP_TO, marker) : `${base.trimEnd()}\n\n${marker}\n`;
  const body = marked.trimEnd();
  const separator = /\n- [^\n]*$/.test(body) ? "\n" : "\n\n";
  return `${body}${separator}${lines.map((l) => l.line).join("\n")}\n`;
}
