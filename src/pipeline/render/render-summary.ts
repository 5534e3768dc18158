// The render room: the Markdown the bot writes — the summary (this file), the check run's output, the
// review body, finding comments, labels — and the rules that make untrusted text inert
// (sanitize-markdown). Pure functions of the ledger's rows; it imports ledger, workspace, job and
// sessions, and writes nothing.

import type { Finding, Turn } from "../../db/schema.js";
import { findingId } from "../../domain/finding-id.js";
import { rulingNote } from "../ledger/ruling-state.js";
import { SEVERITY_ICON, shortSha, STATUS_LABEL, SUMMARY_MARKER, where } from "../../text/labels.js";
import type { FailOn } from "../ledger/blocking-findings.js";
import { reviewState, stateLine } from "./review-state.js";
import { codeBlock } from "../../text/code-block.js";
import { proofLabel } from "./proof-label.js";
import { inlineCode, tableCell } from "../../text/sanitize-markdown.js";

export interface SummaryInput {
  findings: Finding[];
  turns: Turn[];
  lastReviewedSha: string | null;
  notes?: string[];
  /** `review.fail_on`, for the state line; absent = no state line (the caller does not know the config). */
  failOn?: FailOn;
  /** Why no further review may run (a turn or cost limit), when that is so. */
  stopped?: string;
  /**
   * The maintainers' guidelines that applied to the review (from the base branch): files and
   * `path_instructions` globs given to the reviewer, and files left out for `guidelines.max_bytes`.
   */
  guidelines?: { files: string[]; pathInstructions: string[]; cut: string[] };
  /** With no `checks` configured: a `checks` block read from the repository, proposed once, folded. */
  proposedChecks?: string;
}

/** Guideline names listed in the summary's line; the rest are counted. */
const GUIDELINES_SHOWN = 20;

/** Notes listed in the summary; the rest are counted. */
const NOTES_SHOWN = 20;

/** The PR's one summary comment: the review's state, the ledger, the notes kept, the turns with their session modes, and spend. */
export function renderSummary(input: SummaryInput): string {
  const count = (status: string) => input.findings.filter((f) => f.status === status).length;
  const open = input.findings.filter((f) => f.status === "open" || f.status === "fix-pushed");
  const kept = input.findings.filter((f) => f.status === "note");
  const state = input.failOn === undefined ? undefined : reviewState({ ...input, failOn: input.failOn });
  const lines = [SUMMARY_MARKER, "## no-mistakes", ""];
  if (state) lines.push(stateLine(state), "");
  lines.push(
    `**${open.length} open**${reproducedCount(open)}${claimedCount(open)} · ${count("fixed")} resolved · ${count("dismissed")} dismissed` +
      (kept.length > 0 ? ` · ${kept.length} note${kept.length === 1 ? "" : "s"}` : "") +
      (input.lastReviewedSha ? ` · last reviewed ${shortSha(input.lastReviewedSha)}` : ""),
  );
  const tracked = input.findings.filter((f) => f.status !== "note");
  if (tracked.length > 0) {
    lines.push("", "| id | severity | where | finding | status |", "| --- | --- | --- | --- | --- |");
    const ordered = [...open, ...tracked.filter((f) => !open.includes(f))];
    for (const f of ordered) {
      lines.push(
        `| ${findingId(f.number)} | ${SEVERITY_ICON[f.severity] ?? ""} ${f.severity} | ${where(f.path, f.line, f.endLine).replace(/\|/g, "\\|")} | ${tableCell(f.title)} | ${statusLabel(f)} |`,
      );
    }
  }
  for (const [kind, heading] of NOTE_HEADINGS)
    lines.push(
      ...noteList(
        kept.filter((f) => noteKind(f) === kind),
        heading,
      ),
    );
  lines.push(...guidelinesAndNotes(input));
  if (input.proposedChecks) lines.push("", ...proposedChecks(input.proposedChecks));
  if (input.turns.length > 0) {
    const tokens = input.turns.reduce((sum, t) => sum + t.tokensIn + t.tokensOut, 0);
    const tokensIn = input.turns.reduce((sum, t) => sum + t.tokensIn, 0);
    const cached = input.turns.reduce((sum, t) => sum + (t.cacheReadTokens ?? 0), 0);
    const fromCache =
      tokensIn > 0 && cached > 0 ? ` (${Math.round((cached / tokensIn) * 100)}% of input from cache)` : "";
    const cost = input.turns.reduce((sum, t) => sum + Number(t.costUsd), 0);
    const fixRounds = input.turns.filter((t) => t.role === "fixer").length;
    lines.push(
      "",
      `<details><summary>${input.turns.length} agent turn${input.turns.length === 1 ? "" : "s"} · ${fixRounds} fix round${fixRounds === 1 ? "" : "s"} · ${formatTokens(tokens)} tokens${fromCache} · $${cost.toFixed(2)}</summary>`,
      "",
      "| # | role | trigger | commit | session | outcome | tokens | cost |",
      "| --- | --- | --- | --- | --- | --- | --- | --- |",
    );
    input.turns.forEach((t, i) => {
      lines.push(
        `| ${i + 1} | ${t.role} | ${t.trigger} | ${shortSha(t.headSha)} | ${t.sessionMode ?? "—"}${t.fallbackReason && t.sessionMode === "fallback" ? " ⚠️" : ""} | ${t.status} | ${formatTokens(t.tokensIn + t.tokensOut)}${t.cacheReadTokens ? ` (${formatTokens(t.cacheReadTokens)} cached)` : ""} | $${Number(t.costUsd).toFixed(2)} |`,
      );
    });
    lines.push("", "</details>");
  }
  lines.push("", "<sub>Comment `/no-mistakes help` for commands.</sub>");
  return lines.join("\n");
}

/** The guidelines line (when any applied) and the notes, each after a blank line. */
function guidelinesAndNotes(input: SummaryInput): string[] {
  const guidelines = guidelinesLine(input.guidelines);
  const notes = (input.notes ?? []).map((note) => `> ${tableCell(note, 500)}`);
  return [...(guidelines ? [guidelines] : []), ...notes].flatMap((line) => ["", line]);
}

/** "Guidelines from the base branch: `AGENTS.md`, … · path instructions for `src/db/**` · left out …", or nothing. */
function guidelinesLine(g: SummaryInput["guidelines"]): string | undefined {
  if (!g || g.files.length + g.pathInstructions.length + g.cut.length === 0) return undefined;
  const list = (names: string[]) =>
    names.slice(0, GUIDELINES_SHOWN).map(inlineCode).join(", ") +
    (names.length > GUIDELINES_SHOWN ? ` and ${names.length - GUIDELINES_SHOWN} more` : "");
  const parts: string[] = [];
  if (g.files.length > 0) parts.push(list(g.files));
  if (g.pathInstructions.length > 0) parts.push(`path instructions for ${list(g.pathInstructions)}`);
  if (g.cut.length > 0) parts.push(`left out (over \`guidelines.max_bytes\`): ${list(g.cut)}`);
  return `**Guidelines** from the base branch: ${parts.join(" · ")}`;
}

function formatTokens(n: number): string {
  // one form per table: 950, 9.7k, 13.5k
  return n >= 1_000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

/** A finding's status; an open one the reviewer called resolved without a code change says so. */
function statusLabel(f: Finding): string {
  const label = STATUS_LABEL[f.status] ?? f.status;
  const notes: string[] = [];
  if (f.status === "fix-pushed" && f.verification === null) notes.push("not yet confirmed by the verifier");
  if (f.status === "open" && f.verification === "refuted") notes.push("a fix was refuted by the verifier");
  if (f.status === "fixed" && f.verification === "confirmed") notes.push("verified");
  if (f.claimedResolvedSha && (f.status === "open" || f.status === "fix-pushed"))
    notes.push(`claimed resolved at ${shortSha(f.claimedResolvedSha)}, unverified (its code did not change)`);
  if (rulingNote(f)) notes.push(rulingNote(f));
  const proof = (f.status === "open" || f.status === "fix-pushed") && proofLabel(f);
  if (proof) notes.push(proof);
  return notes.length ? `${label} — ${notes.join("; ")}` : label;
}

/** Why a note is one: its reproducer passed, an error nothing reproduced (`verify.blocking: drop`), or unchanged code. */
function noteKind(f: Finding): "not-reproduced" | "refuted" | "dropped" | "unchanged" {
  if (f.reproduction === "not-reproduced") return "not-reproduced";
  if (f.secondOpinion === "refuted") return "refuted";
  return f.demotedFrom !== null ? "dropped" : "unchanged";
}

const NOTE_HEADINGS: [ReturnType<typeof noteKind>, string][] = [
  [
    "not-reproduced",
    "**Not reproduced** — the reviewer's reproducer passed on the head the app ran it on: kept here, not raised, not counted",
  ],
  [
    "refuted",
    "**Refuted by a second opinion** — another agent, in a session of its own, judged these not to be defects: kept here with both views, not raised, not counted",
  ],
  [
    "dropped",
    "**Unverified errors** — no reproducer showed them failing (`verify.blocking: drop`): kept here, not raised, not counted",
  ],
  [
    "unchanged",
    "**Notes** — on code unchanged since an earlier review: kept here, not raised, not counted (an error is always raised)",
  ],
];

/** One kind of note under its heading, the first NOTES_SHOWN listed; nothing when there are none. */
function noteList(notes: Finding[], heading: string): string[] {
  if (notes.length === 0) return [];
  const lines = ["", heading, ""];
  for (const f of notes.slice(0, NOTES_SHOWN)) {
    const reproducer =
      f.reproducer && f.reproduction
        ? ` · its reproducer ${inlineCode(f.reproducer.command)} ${REPRODUCTION_WORDS[f.reproduction] ?? f.reproduction}`
        : "";
    lines.push(
      `- ${where(f.path, f.line, f.endLine)} ${SEVERITY_ICON[f.severity] ?? ""} ${f.severity} — ${tableCell(f.title)} (${findingId(f.number)})${reproducer}${secondView(f)}`,
    );
  }
  if (notes.length > NOTES_SHOWN) lines.push(`- … and ${notes.length - NOTES_SHOWN} more`);
  return lines;
}

/** A refuted finding's two views: the reviewer's (its body, shortened) and the second opinion's reason. */
function secondView(f: Finding): string {
  if (f.secondOpinion !== "refuted") return "";
  const reviewer = tableCell(f.body.length > 300 ? `${f.body.slice(0, 300)}…` : f.body);
  return `\n  - the reviewer: ${reviewer}\n  - ${tableCell(f.secondOpinionBy ?? "the second opinion")}: ${tableCell(f.secondOpinionReason ?? "")}`;
}

const REPRODUCTION_WORDS: Record<string, string> = {
  "not-reproduced": "passed",
  broken: "did not run as a test",
  reproduced: "failed as predicted",
};

/** The proposed `checks` block, folded: what to put in `.github/no-mistakes.yml` to have the app run them. */
function proposedChecks(yaml: string): string[] {
  return [
    "<details><summary>No <code>checks</code> configured: a proposal read from this repository</summary>",
    "",
    "With this in `.github/no-mistakes.yml` on the default branch, the app sets up and tests each PR head in its sandbox, and runs the reviewer's reproducers (a finding posted as reproduced only when its test fails). Nothing runs until a maintainer adds it.",
    "",
    codeBlock(yaml, 2000, "yaml"),
    "",
    "</details>",
  ];
}

function reproducedCount(open: Finding[]): string {
  const reproduced = open.filter((f) => f.reproduction === "reproduced").length;
  return reproduced ? ` (${reproduced} reproduced)` : "";
}

function claimedCount(open: Finding[]): string {
  const claimed = open.filter((f) => f.claimedResolvedSha).length;
  return claimed ? ` (${claimed} claimed resolved, unverified)` : "";
}
