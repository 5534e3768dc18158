import type { Finding, Turn } from "../../db/schema.js";
import { blockingFindings, type FailOn } from "../ledger/blocking-findings.js";

/**
 * Where a PR's review stands:
 * - `stopped`: a turn or cost limit was reached, so no further review runs;
 * - `open findings`: something is open at or above `review.fail_on`;
 * - `converged`: nothing is, and the last review raised nothing that is still open;
 * - `converging`: nothing is, but the last review raised findings below `review.fail_on`.
 */
export interface ReviewState {
  state: "open findings" | "converged" | "converging" | "stopped";
  /** One sentence saying why (the bot's own words, markdown). */
  detail: string;
}

export interface ReviewStateInput {
  findings: Finding[];
  turns: Turn[];
  lastReviewedSha: string | null;
  failOn: FailOn;
  /** Why no further review may run (the budget refusal), when that is so. */
  stopped?: string;
}

/** The review's state; undefined before any review (unless stopped). */
export function reviewState(input: ReviewStateInput): ReviewState | undefined {
  const blocking = blockingFindings(input.findings, input.failOn).length;
  const threshold = input.failOn === "never" ? "nothing fails the check (`review.fail_on: never`)" : undefined;
  const openAbove = `${blocking} finding${blocking === 1 ? "" : "s"} open at or above \`${input.failOn}\``;
  if (input.stopped)
    return {
      state: "stopped",
      detail: `${capital(input.stopped)}; no further reviews run. ${capital(threshold ?? openAbove)}.`,
    };
  if (!input.lastReviewedSha) return undefined;
  if (blocking > 0) return { state: "open findings", detail: `${openAbove} (\`review.fail_on\`).` };
  const none = threshold ?? `nothing open at or above \`${input.failOn}\``;
  const added = addedByLastReview(input).length;
  if (added === 0) return { state: "converged", detail: `${capital(none)}, and the last review raised nothing new.` };
  return {
    state: "converging",
    detail: `${capital(none)}; the last review raised ${added} new finding${added === 1 ? "" : "s"} that do${added === 1 ? "es" : ""} not fail the check, still open.`,
  };
}

/** `**State: converged** — …`: the line the summary comment and the check run start with. */
export function stateLine(state: ReviewState): string {
  return `**State: ${state.state}** — ${state.detail}`;
}

/** Open findings raised by the reviewer turns at the last reviewed head (notes are not raised). */
function addedByLastReview(input: ReviewStateInput): Finding[] {
  const atLast = new Set(
    input.turns.filter((t) => t.role === "reviewer" && t.headSha === input.lastReviewedSha).map((t) => t.id),
  );
  return input.findings.filter(
    (f) =>
      f.introducedTurnId !== null &&
      atLast.has(f.introducedTurnId) &&
      (f.status === "open" || f.status === "fix-pushed"),
  );
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
