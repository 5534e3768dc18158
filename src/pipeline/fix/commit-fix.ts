import type { Finding } from "../../db/schema.js";
import { findingId } from "../../domain/finding-id.js";
import { fixerNotes } from "./fixer-notes.js";
import type { BranchTip, ChosenFindings, FixCommit, FixTurn } from "./fix-turn.js";
import { neutralizeAgentText } from "../../text/neutralize-agent-text.js";
import type { FixerAnswer } from "./parse-fixer-answer.js";

/**
 * What the fixer left, committed on the tip with the bot's own identity; what it says it fixed and
 * declined counts only for findings it was asked about. Undefined when it changed nothing, and the reply
 * says so.
 */
export async function commitFix(
  turn: FixTurn,
  findings: ChosenFindings,
  tip: BranchTip,
  answer: FixerAnswer & { turnId?: number },
): Promise<FixCommit | undefined> {
  const { chosen } = findings;
  const fixedNumbers = (answer.fixed ?? chosen.map((f) => f.number)).filter((n) => chosen.some((f) => f.number === n));
  const fixed = chosen.filter((f) => fixedNumbers.includes(f.number));
  const declined = answer.declined.filter((d) => chosen.some((f) => f.number === d.number));
  const identity = await turn.ctx.github.botIdentity();
  const message = commitMessage(fixed.length ? fixed : chosen, answer.summary);
  const sha = await tip.workspace.commitAll(message, identity);
  if (!sha) {
    await turn.reply(
      `${turn.who}The fixer looked at ${chosen.map((f) => findingId(f.number)).join(", ")} and found nothing to change.${fixerNotes(declined, answer.summary)}`,
    );
    return undefined;
  }
  return { sha, message, turnId: answer.turnId ?? null, fixed, declined, summary: answer.summary };
}

/**
 * The bot's commit message. The titles (the reviewer's words) and the summary (the fixer's) are agent text: they go
 * through `neutralizeAgentText`, so the message closes no issue, carries no trailer and mentions no one.
 */
function commitMessage(findings: Finding[], summary: string): string {
  const ids = findings.map((f) => findingId(f.number)).join(", ");
  const title = (f: Finding) => neutralizeAgentText(f.title.replace(/\s+/g, " "));
  const subject = `fix(no-mistakes): ${ids} — ${title(findings[0]!)}`.slice(0, 100);
  const lines = findings.map((f) => `- ${findingId(f.number)}: ${title(f)}`);
  return [subject, "", ...lines, ...(summary ? ["", neutralizeAgentText(summary.slice(0, 1500))] : [])].join("\n");
}
