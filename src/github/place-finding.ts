/**
 * Decides where a finding can go in a pull request review: inline on lines GitHub accepts (see
 * parse-diff.ts), or in the review body with the reason it could not be inline. Posting a
 * comment anywhere else fails the whole review with 422 "Line could not be resolved".
 */
import { hunkContaining } from "./parse-diff.js";
import type { DiffFile, DiffIndex } from "./parse-diff.js";

export interface FindingLocation {
  readonly path: string;
  /** First line (1-based, new side) the finding is about. */
  readonly line?: number;
  /** Last line, for a finding about a range; ignored unless greater than `line`. */
  readonly endLine?: number;
}

export interface InlinePlacement {
  readonly kind: "inline";
  /** As in the diff (normalised: no leading `./` or `/`). */
  readonly path: string;
  /** The line GitHub anchors the comment on: the last line of a range. */
  readonly line: number;
  /** First line of a multi-line comment; absent for a single line. Always < `line`, same hunk. */
  readonly startLine?: number;
  readonly side: "RIGHT";
}

export type BodyReason = "no-line" | "file-not-in-diff" | "line-not-in-diff" | "deleted-file" | "binary";

export interface BodyPlacement {
  readonly kind: "body";
  readonly reason: BodyReason;
}

export type Placement = InlinePlacement | BodyPlacement;

/**
 * Where to put a finding. A range `line..endLine` stays a range only when both ends are in the
 * same hunk; otherwise it shrinks to its end line (GitHub anchors on the end) if that is in the
 * diff, else to its first line; otherwise it goes to the body. A finding without a usable line
 * (missing, not a positive integer) always goes to the body.
 */
export function placeFinding(index: DiffIndex, finding: FindingLocation): Placement {
  const line = finding.line;
  if (!isLineNumber(line)) return { kind: "body", reason: "no-line" };

  const file = findFile(index, finding.path);
  if (!file) return { kind: "body", reason: "file-not-in-diff" };
  if (file.status === "deleted") return { kind: "body", reason: "deleted-file" };
  if (file.binary) return { kind: "body", reason: "binary" };

  const endLine = effectiveEndLine(finding);
  const path = file.path;
  if (endLine !== undefined) {
    const endHunk = hunkContaining(file, endLine);
    if (endHunk) {
      // Commentable lines of a hunk are contiguous, so both ends in it means the whole range is.
      if (endHunk.commentable.has(line)) return { kind: "inline", path, line: endLine, startLine: line, side: "RIGHT" };
      return { kind: "inline", path, line: endLine, side: "RIGHT" };
    }
  }
  if (hunkContaining(file, line)) return { kind: "inline", path, line, side: "RIGHT" };
  return { kind: "body", reason: "line-not-in-diff" };
}

/**
 * Whether a ```suggestion can be attached to this placement: only when the comment covers
 * exactly the finding's lines, since GitHub replaces the commented lines with the suggestion.
 * False for body placements and for ranges that were shrunk or moved.
 */
export function canSuggest(placement: Placement, finding: FindingLocation): boolean {
  if (placement.kind !== "inline") return false;
  if (!isLineNumber(finding.line)) return false;
  if (normalisePath(finding.path) !== placement.path) return false;
  const endLine = effectiveEndLine(finding) ?? finding.line;
  return placement.line === endLine && (placement.startLine ?? placement.line) === finding.line;
}

/** `endLine` when it makes the finding a real range (a line number greater than `line`). */
function effectiveEndLine(finding: FindingLocation): number | undefined {
  const { line, endLine } = finding;
  if (!isLineNumber(line) || !isLineNumber(endLine) || endLine <= line) return undefined;
  return endLine;
}

function isLineNumber(value: number | undefined): value is number {
  return value !== undefined && Number.isInteger(value) && value >= 1;
}

function normalisePath(path: string): string {
  let p = path.trim();
  while (p.startsWith("./")) p = p.slice(2);
  while (p.startsWith("/")) p = p.slice(1);
  return p;
}

function findFile(index: DiffIndex, path: string): DiffFile | undefined {
  return index.files.get(normalisePath(path));
}
