import type { Finding } from "../../db/schema.js";
import { codeBlock } from "../../text/code-block.js";
import { outputEnd } from "./output-end.js";
import { inlineCode, neutralize, sanitizeMarkdown } from "../../text/sanitize-markdown.js";

/** A reproducer's run as a finding's comment shows it: its command, how it ended, the end of its output. */
export interface ShownReproduction {
  command: string;
  /** In words: `it exited 1`, `it passed its time limit`; absent when not known (a run recorded by an earlier attempt). */
  why?: string;
  /** The end of its output (the PR author's and the model's text). */
  output: string;
}

/**
 * What a posted finding's comment says of its proof: reproduced (the command, how it failed and the end of
 * its output, inert and bounded), a reproducer that did not run as a test, or an error nothing reproduced
 * posted as an unverified warning. Nothing when the finding has neither a reproduction nor a demotion.
 */
export function renderReproduction(finding: Finding, shown: ShownReproduction | undefined): string[] {
  const command = shown?.command ?? finding.reproducer?.command;
  const lines: string[] = [];
  if (finding.reproduction === "reproduced" && command !== undefined) {
    const how = shown?.why ? `: ${sanitizeMarkdown(shown.why)}` : "";
    const output = shown?.output.trim()
      ? `\n\n<details><summary>The end of its output</summary>\n\n${codeBlock(neutralize(outputEnd(shown.output)))}\n\n</details>`
      : "";
    lines.push(`**✅ Reproduced** — the app ran ${inlineCode(command)} on this head and it failed${how}.${output}`);
  } else if (finding.reproduction === "broken" && command !== undefined) {
    const why = shown?.why ? ` (${sanitizeMarkdown(shown.why)})` : "";
    lines.push(`_Unverified: its reproducer ${inlineCode(command)} did not run as a test${why}._`);
  }
  if (finding.secondOpinion === "confirmed" && finding.status === "open")
    lines.push(
      `**☑️ Confirmed by a second opinion** (${sanitizeMarkdown(finding.secondOpinionBy ?? "another agent")}, in a session of its own): ${sanitizeMarkdown(finding.secondOpinionReason ?? "")}`,
    );
  if (finding.demotedFrom !== null && finding.status === "open")
    lines.push(
      `_Unverified: raised as ${sanitizeMarkdown(finding.demotedFrom)}, posted as ${sanitizeMarkdown(finding.severity)} because no reproducer showed it failing (\`verify.blocking\`)._`,
    );
  return lines;
}
