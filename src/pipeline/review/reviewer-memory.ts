import { createHash } from "node:crypto";
import { readGuidelineDigests } from "../guidelines/read-guideline-digests.js";

/**
 * What a reviewer session has been told, stored with it after each turn: the ledger as it was shown
 * (finding id → status), digests of the PR's title and body and of the maintainers' instructions, and
 * the session's last summary, and which standing rules it has heard. A resumed turn's prompt sends only
 * what differs from this.
 */
export interface ReviewerMemory {
  v: 1;
  ledger: Record<string, string>;
  pr: string;
  instructions: string;
  summary?: string;
  /** It has been told the rule of a later review: new findings only on changed lines (or what they break). */
  converging?: boolean;
  /** It has been told that a finding may carry a reproducer the app runs. */
  reproducers?: boolean;
  /** The maintainers' guidelines it has been given: key (file path, `path_instructions: <glob>`) → digest. */
  guidelines?: Record<string, string>;
}

export function digest(text: string): string {
  return createHash("sha256").update(text).digest("base64url").slice(0, 16);
}

/** A stored memory, or undefined when it is absent or not one this version wrote (then everything is told again). */
export function readReviewerMemory(value: unknown): ReviewerMemory | undefined {
  if (!value || typeof value !== "object") return undefined;
  const m = value as Partial<ReviewerMemory>;
  if (m.v !== 1 || typeof m.pr !== "string" || typeof m.instructions !== "string") return undefined;
  if (!m.ledger || typeof m.ledger !== "object" || Array.isArray(m.ledger)) return undefined;
  if (!Object.values(m.ledger).every((s) => typeof s === "string")) return undefined;
  return {
    v: 1,
    ledger: m.ledger,
    pr: m.pr,
    instructions: m.instructions,
    ...(typeof m.summary === "string" ? { summary: m.summary } : {}),
    ...(m.converging === true ? { converging: true } : {}),
    ...(m.reproducers === true ? { reproducers: true } : {}),
    ...(readGuidelineDigests(m.guidelines) ? { guidelines: readGuidelineDigests(m.guidelines) } : {}),
  };
}
