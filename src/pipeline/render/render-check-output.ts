import type { Finding } from "../../db/schema.js";
import { findingId } from "../../domain/finding-id.js";
import { rulingNote } from "../ledger/ruling-state.js";
import { blockingFindings, type FailOn } from "../ledger/blocking-findings.js";
import { SEVERITY_ICON, where } from "../../text/labels.js";
import { proofLabel } from "./proof-label.js";
import { stateLine, type ReviewState } from "./review-state.js";
import { sanitizeMarkdown, tableCell } from "../../text/sanitize-markdown.js";

const STATE_TITLE: Record<ReviewState["state"], string> = {
  "open findings": "Open findings",
  converged: "Converged",
  converging: "Converging",
  stopped: "Stopped",
};

/** ` · 1 reproduced`: the open findings the app saw fail as predicted, counted apart; nothing when none. */
function reproducedApart(open: Finding[]): string {
  const n = open.filter((f) => f.reproduction === "reproduced").length;
  return n > 0 ? ` · ${n} reproduced` : "";
}

/** A finding's ruling and what the app's runs say of it, in a table cell. */
function annotations(f: Finding): string {
  const notes = [rulingNote(f), proofLabel(f)].filter((n) => n);
  return notes.length ? ` _(${notes.join("; ")})_` : "";
}

/** The notes kept (not counted; listed in the summary), counted by why they are notes. */
function keptNotes(notes: Finding[]): string[] {
  const plural = (n: number) => `${n} note${n === 1 ? "" : "s"}`;
  const notReproduced = notes.filter((f) => f.reproduction === "not-reproduced").length;
  const refuted = notes.filter((f) => f.reproduction !== "not-reproduced" && f.secondOpinion === "refuted").length;
  const dropped = notes.filter(
    (f) => f.reproduction !== "not-reproduced" && f.secondOpinion !== "refuted" && f.demotedFrom !== null,
  ).length;
  const unchanged = notes.length - notReproduced - refuted - dropped;
  const parts = [
    ...(notReproduced ? [`${plural(notReproduced)} whose reproducer passed (not reproduced)`] : []),
    ...(refuted ? [`${plural(refuted)} a second opinion refuted`] : []),
    ...(dropped ? [`${plural(dropped)} from errors nothing reproduced (\`verify.blocking: drop\`)`] : []),
    ...(unchanged ? [`${plural(unchanged)} on code unchanged since an earlier review`] : []),
  ];
  return parts.length ? ["", `${parts.join(", ")} (not counted; listed in the PR's summary comment).`] : [];
}

/** Open findings at or above the configured severity fail the check; `never` never does. */
export function checkConclusion(findings: Finding[], failOn: FailOn): "success" | "failure" {
  return blockingFindings(findings, failOn).length > 0 ? "failure" : "success";
}

/** The check run's title and markdown summary; with `state`, the title and summary start with it. */
export function renderCheckOutput(
  findings: Finding[],
  notes: string[],
  state?: ReviewState,
): { title: string; summary: string } {
  const open = findings.filter((f) => f.status === "open" || f.status === "fix-pushed");
  const bySeverity = (s: string) => open.filter((f) => f.severity === s).length;
  const title =
    open.length === 0
      ? "No open findings"
      : `${open.length} open finding${open.length === 1 ? "" : "s"} (${["error", "warning", "info"]
          .map((s) => [s, bySeverity(s)] as const)
          .filter(([, n]) => n > 0)
          .map(([s, n]) => `${n} ${s}`)
          .join(", ")})${reproducedApart(open)}`;
  const lines: string[] = state ? [stateLine(state), ""] : [];
  if (open.length > 0) {
    lines.push("| id | severity | where | finding |", "| --- | --- | --- | --- |");
    for (const f of open)
      lines.push(
        `| ${findingId(f.number)} | ${SEVERITY_ICON[f.severity] ?? ""} ${f.severity} | ${where(f.path, f.line, f.endLine).replace(/\|/g, "\\|")} | ${tableCell(f.title)}${annotations(f)} |`,
      );
  } else {
    lines.push("Nothing open. 🎉");
  }
  for (const note of notes) lines.push("", `> ${sanitizeMarkdown(note).replace(/\n/g, "\n> ")}`);
  lines.push(...keptNotes(findings.filter((f) => f.status === "note")));
  return {
    title: state && state.state !== "open findings" ? `${STATE_TITLE[state.state]} · ${title}` : title,
    summary: lines.join("\n"),
  };
}
