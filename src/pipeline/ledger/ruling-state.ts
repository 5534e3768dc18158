import type { Finding } from "../../db/schema.js";

export type Ruling = "upheld" | "withdrawn" | "deferred";

const RANK: Record<string, number> = { info: 1, warning: 2, error: 3 };

function live(f: Pick<Finding, "status">): boolean {
  return f.status === "open" || f.status === "fix-pushed";
}

/** A withdrawal or deferral the PR's author asked for on a finding that fails the check: it counts once a writer confirms. */
export function awaitingMaintainer(f: Pick<Finding, "status" | "ruling" | "rulingConfirmation">): boolean {
  return live(f) && (f.ruling === "withdrawn" || f.ruling === "deferred") && f.rulingConfirmation === "awaiting";
}

/** What the summary and the check say about a ruling that does not count yet (empty when there is nothing to say). */
export function rulingNote(f: Pick<Finding, "status" | "ruling" | "rulingConfirmation">): string {
  return awaitingMaintainer(f) ? `${f.ruling} at the author's request, awaiting a maintainer` : "";
}

export interface RulingInput {
  ruling: Ruling;
  reason: string;
  /** Who argued. */
  by: string;
  byWriter: boolean;
  failOn: "error" | "warning" | "info" | "never";
}

/**
 * The ledger change a ruling makes. `withdrawn` ends the finding like a dismissal (status `withdrawn`)
 * and `deferred` keeps it, not blocking (status `deferred`) — when argued by a writer, or on a finding
 * below `review.fail_on`; the PR author's argument on a finding that fails the check is recorded as
 * awaiting a maintainer, and the finding stays open and keeps counting. `upheld` records the reasons (a
 * finding withdrawn or deferred earlier is open again).
 */
export function rulingPatch(f: Pick<Finding, "status" | "severity">, input: RulingInput): Partial<Finding> {
  const ruled = f.status === "withdrawn" || f.status === "deferred";
  const isLive = live(f) || ruled;
  const reopened = ruled ? { status: "open" } : {};
  const base = {
    ruling: input.ruling,
    rulingReason: input.reason,
    rulingBy: input.by,
    rulingConfirmedBy: null,
    rulingReplyId: null,
  };
  if (input.ruling === "upheld" || !isLive)
    return { ...base, rulingConfirmation: null, ...(input.ruling === "upheld" ? reopened : {}) };
  const blocks = input.failOn !== "never" && (RANK[f.severity] ?? 0) >= RANK[input.failOn]!;
  const confirmation = input.byWriter ? "writer" : blocks ? "awaiting" : "not-needed";
  if (confirmation === "awaiting") return { ...base, rulingConfirmation: confirmation, ...reopened };
  return { ...base, rulingConfirmation: confirmation, status: input.ruling };
}

/** A writer confirms a ruling that awaited one: it takes effect. */
export function confirmPatch(f: Pick<Finding, "status" | "ruling">, by: string): Partial<Finding> {
  const takesEffect = live(f) && (f.ruling === "withdrawn" || f.ruling === "deferred");
  return { rulingConfirmation: "confirmed", rulingConfirmedBy: by, ...(takesEffect ? { status: f.ruling! } : {}) };
}
