import { oneLine } from "./one-line.js";
import { promptBlock } from "./prompt-block.js";
import type { ClosedFinding, LedgerEntry, ReviewPromptInput } from "./review-prompt-input.js";
import { CLOSED_LIMIT, FINDING_BODY_LIMIT, NOTES_LIMIT, TITLE_LIMIT } from "./review-prompt-limits.js";
import type { ReviewerMemory } from "./reviewer-memory.js";
import { shorten } from "./shorten.js";

/** The findings ledger in a review prompt: what the reviewer is told to do with it, and the lists it is shown. */
export interface ReviewPromptLedger {
  /** Paragraphs of the task: what to do with the open, closed or changed findings listed. */
  guidance: string[];
  /** The lists themselves, in tagged blocks, among the prompt's data. */
  blocks: string[];
}

/**
 * A new or forgetful session is shown the open findings and kept notes, and a new one the closed
 * findings too; a resumed session with a memory only the ledger's changes since.
 */
export function reviewPromptLedger(input: ReviewPromptInput): ReviewPromptLedger {
  const session = input.session;
  // What a resumed session with a memory has not yet been told of the ledger: one line per change.
  const changes = session?.kind === "resumed" && session.seen ? ledgerChanges(session.ledger, session.seen) : undefined;
  const closed = session?.kind === "fresh" ? (session.closedFindings ?? []) : [];
  return { guidance: ledgerGuidance(input, changes, closed), blocks: ledgerBlocks(input, changes, closed) };
}

function ledgerGuidance(input: ReviewPromptInput, changes: string[] | undefined, closed: ClosedFinding[]): string[] {
  const out: string[] = [];
  if (changes) {
    if (changes.length > 0)
      out.push(
        `The findings ledger changed since your last turn (below). Open findings keep their ids: put in "resolved" those now fixed, restate one only with its "id", and do not raise again what was dismissed, withdrawn or deferred.`,
      );
  } else if (input.openFindings.length > 0)
    out.push(
      `Open findings from earlier reviews are listed below by id: put in "resolved" the ids of those now fixed. Report only problems not listed; restating a listed one must carry its "id".`,
    );
  if (closed.length > 0)
    out.push(
      `Findings closed earlier (fixed, dismissed, withdrawn, deferred) are listed below: do not raise them again unless the code they name changed and the problem is back.`,
    );
  return out;
}

function ledgerBlocks(input: ReviewPromptInput, changes: string[] | undefined, closed: ClosedFinding[]): string[] {
  const out: string[] = [];
  const converging = input.converging;
  if (changes) {
    if (changes.length > 0) out.push(promptBlock("ledger-changes", changes.join("\n")));
  } else {
    if (input.openFindings.length > 0)
      out.push(promptBlock("open-findings", input.openFindings.map(describeFinding).join("\n")));
    if (converging && converging.notes.length > 0)
      out.push(
        `Kept as notes earlier (not raised); do not report them again unless a change now breaks them (then restate with their "id"):\n${promptBlock("kept-notes", listNotes(converging.notes))}`,
      );
  }
  if (closed.length > 0) out.push(promptBlock("closed-findings", listClosed(closed)));
  return out;
}

/** One line for each finding whose status the session has not seen (new ones included). */
function ledgerChanges(ledger: LedgerEntry[], seen: ReviewerMemory): string[] {
  return ledger
    .filter((f) => seen.ledger[f.id] !== f.status)
    .map((f) => {
      const where = f.path ? ` ${oneLine(f.line === undefined ? f.path : `${f.path}:${f.line}`)}` : "";
      const was = seen.ledger[f.id] === undefined ? "" : ` (was ${seen.ledger[f.id]})`;
      const why = f.reason ? ` — ${shorten(oneLine(f.reason), FINDING_BODY_LIMIT)}` : "";
      return `${f.id} ${f.status}${was} ${f.severity}${where}: ${shorten(oneLine(f.title), TITLE_LIMIT)}${why}`;
    });
}

function listClosed(closed: ClosedFinding[]): string {
  const shown = closed.slice(0, CLOSED_LIMIT).map((f) => {
    const where = f.path ? ` ${oneLine(f.line === undefined ? f.path : `${f.path}:${f.line}`)}` : "";
    const why = f.reason ? ` — ${shorten(oneLine(f.reason), FINDING_BODY_LIMIT)}` : "";
    return `${f.id} ${f.status}${where}: ${shorten(oneLine(f.title), TITLE_LIMIT)}${why}`;
  });
  if (closed.length > shown.length) shown.push(`… and ${closed.length - shown.length} more`);
  return shown.join("\n");
}

function describeFinding(finding: ReviewPromptInput["openFindings"][number]): string {
  const where = finding.line === undefined ? finding.path : `${finding.path}:${finding.line}`;
  const head = `${finding.id} ${finding.severity} ${oneLine(where)}: ${shorten(oneLine(finding.title), TITLE_LIMIT)}`;
  const body = shorten(oneLine(finding.body), FINDING_BODY_LIMIT);
  return body === "" ? head : `${head}\n  ${body}`;
}

function listNotes(notes: NonNullable<ReviewPromptInput["converging"]>["notes"]): string {
  const shown = notes
    .slice(0, NOTES_LIMIT)
    .map(
      (n) =>
        `${n.id} ${n.severity} ${oneLine(n.line === undefined ? n.path : `${n.path}:${n.line}`)}: ${shorten(oneLine(n.title), TITLE_LIMIT)}`,
    );
  if (notes.length > shown.length) shown.push(`… and ${notes.length - shown.length} more`);
  return shown.join("\n");
}
