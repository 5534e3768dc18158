import { setTimeout as sleep } from "node:timers/promises";
import { AgentError, toAgentError } from "../../agents/agent-error.js";
import type { AgentResult } from "../../agents/types.js";
import { readTurnBudget } from "./read-turn-budget.js";
import type { SessionDeps } from "./session-deps.js";
import type { SessionTurn } from "./session-turn.js";
import type { TurnRequest } from "./turn-request.js";

/**
 * One agent call of `request` (the turn or its fresh form) in `sessionId`, or a new session when absent;
 * transient failures are retried with backoff, all else is thrown as classified.
 */
export async function callAgent(
  deps: SessionDeps,
  { runId, role, scope, log }: SessionTurn,
  request: TurnRequest,
  sessionId: string | undefined,
): Promise<AgentResult> {
  for (let attempt = 0; ; attempt++) {
    const budget = await readTurnBudget(deps.db, runId, request.limits, log);
    try {
      return await deps.agent.run({
        prompt: request.prompt,
        cwd: request.cwd,
        role,
        sessionId,
        timeoutMs: request.timeoutMs,
        signal: request.signal,
        scope,
        budget,
      });
    } catch (error) {
      const failure = toAgentError(error);
      if (failure.kind !== "transient" || attempt >= deps.transientRetries || request.signal?.aborted) throw failure;
      const delay = deps.retryBaseDelayMs * 2 ** attempt;
      log.warn({ attempt: attempt + 1, delayMs: delay, reason: failure.message }, "transient agent failure; retrying");
      await sleep(delay, undefined, request.signal ? { signal: request.signal } : undefined).catch(() => {
        throw new AgentError("cancelled", "cancelled while waiting to retry");
      });
    }
  }
}
