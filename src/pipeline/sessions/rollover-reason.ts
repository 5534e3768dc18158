import type { Logger } from "pino";
import type { RunAgentSession } from "../../db/schema.js";
import { expectedGrowth } from "./expected-growth.js";
import { expiredAndLarger } from "./expired-and-larger.js";
import { promptTokens } from "./prompt-tokens.js";
import type { SessionDeps } from "./session-deps.js";
import type { TurnRequest } from "./turn-request.js";

/**
 * Why the turn should not resume `stored` but roll over into a new session, or undefined when it may
 * resume it: the turn would take the session past its budget (checked first), or the provider's cache
 * has expired and resending the session costs more than a new one (expiredAndLarger).
 */
export async function rolloverReason(
  deps: SessionDeps,
  runId: number,
  stored: RunAgentSession,
  turn: TurnRequest,
  log: Logger,
): Promise<string | undefined> {
  const growth = await expectedGrowth(deps.db, runId, stored, promptTokens(turn.prompt), log);
  if (stored.contextTokens + growth > deps.sessionBudget) {
    // Resuming would resend a history this large on every request, and soon pass the window.
    return `the session holds ${stored.contextTokens} tokens and a turn adds about ${growth}, past its budget of ${deps.sessionBudget}: a new session starts from a digest of the pull request`;
  }
  return expiredAndLarger(deps, stored, turn);
}
