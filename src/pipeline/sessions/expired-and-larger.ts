import type { RunAgentSession } from "../../db/schema.js";
import { promptTokens } from "./prompt-tokens.js";
import type { SessionDeps } from "./session-deps.js";
import type { TurnRequest } from "./turn-request.js";

/**
 * Why a stored session should not be resumed because its cache has expired: undefined while it may
 * still be cached, when the turn has no prompt of its own for a new session, or when the session is
 * and its new prompt are no larger than a new one would be (its overhead and the fresh prompt).
 */
export function expiredAndLarger(
  deps: Pick<SessionDeps, "now" | "cacheTtlMs">,
  stored: RunAgentSession,
  turn: TurnRequest,
): string | undefined {
  if (turn.freshPrompt === undefined) return undefined;
  const idleMs = deps.now() - stored.updatedAt.getTime();
  if (idleMs <= deps.cacheTtlMs) return undefined;
  // what each would send first, with nothing cached: the history and its new prompt, or a new session
  const resendTokens = stored.contextTokens + promptTokens(turn.prompt);
  const freshTokens = stored.overheadTokens + promptTokens(turn.freshPrompt);
  if (resendTokens <= freshTokens) return undefined;
  return `the provider's cache has expired (the session was last used ${Math.round(idleMs / 1000)} s ago) and resending its ${resendTokens} tokens costs more than a new session's ${freshTokens}: a new session starts from a digest of the pull request`;
}
