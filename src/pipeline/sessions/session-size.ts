import type { AgentResult } from "../../agents/types.js";
import type { RunAgentSession } from "../../db/schema.js";
import type { SessionMode } from "../../db/turns.js";
import { promptTokens } from "./prompt-tokens.js";

/**
 * A finished turn's sizes: `turnContext` for its `turns` row; for the session it leaves stored, its size
 * (`contextTokens`) and, when it is a new session, what it carries besides its prompt (`overheadTokens`).
 */
export function sessionSize(
  result: AgentResult,
  mode: SessionMode,
  stored: RunAgentSession | undefined,
  freshPrompt: string,
): { turnContext: number; contextTokens: number; overheadTokens: number | undefined } {
  // The session's size: the proxy's measure of its largest request, else every input token of the
  // turn (more than its size when the turn made several requests: a rollover comes early, never late).
  const turnContext = result.usage.contextTokens ?? result.usage.tokensIn;
  // what a new session carries besides its prompt, learnt from this one's first turn
  const overheadTokens = mode === "resumed" ? undefined : Math.max(0, turnContext - promptTokens(freshPrompt));
  const contextTokens = mode === "resumed" ? Math.max(stored?.contextTokens ?? 0, turnContext) : turnContext;
  return { turnContext, contextTokens, overheadTokens };
}
