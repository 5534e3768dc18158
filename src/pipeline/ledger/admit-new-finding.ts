import type { NewFinding } from "../../db/findings.js";
import type { ReportedFinding } from "./reported-finding.js";

export interface NewFindingInput {
  reported: ReportedFinding;
  /** Its repo-relative path. */
  path: string;
  fingerprint: string;
  /** Lines in the file at the reviewed head; undefined when the file does not exist there. */
  lines: number | undefined;
  /** Whether it is raised (open) or kept as a note, at the lines it is kept at. */
  raise: (line: number | undefined, endLine: number | undefined) => boolean;
  turnId: number | undefined;
}

/**
 * A finding new to the ledger as it is inserted, or why it cannot be placed in the repository: its file
 * exists nowhere in the pull request, or its line is past the end of the file. A range running past the
 * end is cut at the end, and loses its suggestion.
 */
export function admitNewFinding(
  input: NewFindingInput,
): { added: NewFinding } | { dropped: { title: string; path: string; reason: string } } {
  const { reported, path, lines } = input;
  if (lines === undefined)
    return {
      dropped: {
        title: reported.title,
        path,
        reason: "the file exists nowhere in the pull request (neither at its head nor at its base)",
      },
    };
  if (reported.line !== undefined && reported.line > lines)
    return {
      dropped: { title: reported.title, path, reason: `line ${reported.line} is outside the file (${lines} lines)` },
    };
  let endLine =
    reported.end_line !== undefined && reported.line !== undefined && reported.end_line > reported.line
      ? reported.end_line
      : undefined;
  let suggestion = reported.suggestion;
  if (endLine !== undefined && endLine > lines) {
    endLine = lines;
    suggestion = undefined; // the replacement was written for lines that do not exist
  }
  if (reported.line === undefined) suggestion = undefined;
  return {
    added: {
      fingerprint: input.fingerprint,
      path,
      line: reported.line ?? null,
      endLine: endLine ?? null,
      severity: reported.severity,
      action: reported.action,
      title: reported.title,
      body: reported.broken_by
        ? `${reported.body}\n\nBroken by the change at \`${reported.broken_by.path}:${reported.broken_by.line}\`.`
        : reported.body,
      suggestion: suggestion ?? null,
      reproducer: reported.reproducer ?? null,
      status: input.raise(reported.line, endLine) ? "open" : "note",
      introducedTurnId: input.turnId ?? null,
    },
  };
}
