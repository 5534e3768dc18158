import { findingId } from "../../domain/finding-id.js";
import { codeBlock } from "../../text/code-block.js";
import { outputEnd } from "../render/output-end.js";
import { inlineCode, neutralize, sanitizeMarkdown } from "../../text/sanitize-markdown.js";
import type { FixProof, ProofFailure, RegressionTests } from "./fix-turn.js";

/** Failures shown with their output; the rest are named. */
const SHOWN = 5;

export { outputEnd };

/**
 * Each failure for a reply: what it shows, the command and how it ended, and the end of its output in a
 * block nothing in it can close, with no mention, tag or marker left live (it is the PR author's text).
 */
export function renderFailures(failures: readonly ProofFailure[]): string {
  const shown = failures.slice(0, SHOWN).map((f) => {
    const line = `${sanitizeMarkdown(sentence(f.what))}: ${inlineCode(f.command)} — ${sanitizeMarkdown(f.why)}.`;
    return f.output.trim() ? `${line} Its output ends:\n\n${codeBlock(neutralize(outputEnd(f.output)))}` : line;
  });
  const more = failures.length > SHOWN ? [`…and ${failures.length - SHOWN} more.`] : [];
  return [...shown, ...more].join("\n\n");
}

/** The failures as the fixer's next prompt gives them (plain text; the caller puts it in a block it escapes). */
export function failuresForPrompt(failures: readonly ProofFailure[]): string {
  return failures
    .slice(0, SHOWN)
    .map(
      (f) =>
        `${sentence(f.what)}: \`${f.command}\` — ${f.why}.${f.output.trim() ? `\nIts output ends:\n${outputEnd(f.output)}` : ""}`,
    )
    .join("\n\n");
}

/** What the app ran on a pushed fix, for the "Pushed" reply; empty when the repository names no checks. */
export function renderProof(proof: FixProof | undefined, tests: RegressionTests | undefined): string {
  if (!proof) return "";
  const lines: string[] = [];
  if (proof.notRun) lines.push(`The repository's checks were not run on the fix: ${sanitizeMarkdown(proof.notRun)}.`);
  for (const { finding, command } of proof.passing)
    lines.push(`${findingId(finding.number)}'s reproducer ${inlineCode(command)} now passes.`);
  for (const { finding, command, why } of proof.brokenBefore)
    lines.push(
      `${findingId(finding.number)}'s reproducer ${inlineCode(command)} did not run as a test before the fix either (${sanitizeMarkdown(why)}), so it is not held against it.`,
    );
  if (proof.passed.length) lines.push(`Passing: ${proof.passed.map(inlineCode).join(", ")}.`);
  if (proof.failedBefore.length)
    lines.push(
      `Failing, but not before the fix either, so not blamed on it: ${proof.failedBefore.map(inlineCode).join(", ")}.`,
    );
  if (tests?.added.length) lines.push(`Added as regression tests: ${tests.added.map(inlineCode).join(", ")}.`);
  if (tests?.leftOut.length)
    lines.push(
      `Not added as regression tests: ${tests.leftOut.map((l) => `${inlineCode(l.path)} (${l.why})`).join(", ")}.`,
    );
  return lines.length ? `\n\nBefore the push:\n${lines.map((l) => `- ${l}`).join("\n")}` : "";
}

/** Words that open a paragraph, capitalised. */
function sentence(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}
