import { AgentError } from "./agent-error.js";
import type { MeterReport } from "./sandbox/model-meter.js";
import type { AgentResult, AgentUsage } from "./types.js";

/**
 * A turn's usage: what the CLI reported, raised to what the model proxy measured where that is more
 * (the proxy also sees requests the CLI did not make itself, e.g. from a shell in the sandbox).
 */
export function meteredUsage(reported: AgentUsage | undefined, metered: MeterReport | undefined): AgentUsage {
  const usage: AgentUsage = { ...reported, tokensIn: reported?.tokensIn ?? 0, tokensOut: reported?.tokensOut ?? 0 };
  if (!metered) return usage;
  usage.tokensIn = Math.max(usage.tokensIn, metered.tokensIn);
  usage.tokensOut = Math.max(usage.tokensOut, metered.tokensOut);
  usage.costUsd = Math.max(usage.costUsd ?? 0, metered.costUsd);
  usage.cacheReadTokens = Math.max(usage.cacheReadTokens ?? 0, metered.cacheReadTokens);
  usage.cacheWriteTokens = Math.max(usage.cacheWriteTokens ?? 0, metered.cacheWriteTokens);
  // the proxy saw each request: its largest is the session's size, where the CLI only reports totals
  if (metered.largestRequestTokens > 0) usage.contextTokens = metered.largestRequestTokens;
  return usage;
}

/** The turn's failure when the proxy stopped it at the budget, else undefined. */
function budgetStop(agent: string, metered: MeterReport | undefined): AgentError | undefined {
  if (metered?.stopped === undefined) return undefined;
  return new AgentError("other", `${agent} was stopped: ${metered.stopped}`, {
    usage: meteredUsage(undefined, metered),
  });
}

/**
 * The same failure, carrying the call's usage (a failed turn still counts in the PR's spend). When the
 * proxy or the model API refused the call's model, the failure says that first, in words that name
 * both the model sent and the configured one (the CLI's own words name only the one it was given).
 */
function withUsage(agent: string, error: unknown, metered: MeterReport | undefined): unknown {
  if (!(error instanceof AgentError) || !metered) return error;
  const usage = meteredUsage(error.usage, metered);
  // A refusal met on the way does not explain a timeout, a cancel or a limit.
  if (metered.modelRefused === undefined || (error.kind !== "other" && error.kind !== "transient")) {
    error.usage = usage;
    return error;
  }
  return new AgentError("other", `${agent} failed: ${metered.modelRefused} — ${error.message}`, {
    cause: error,
    usage,
  });
}

/**
 * What an adapter makes of a sandboxed call, metered: the budget stop first, then `interpret`'s
 * result with its usage raised to the proxy's measure, or its failure carrying that usage.
 */
export function interpretMetered(
  agent: string,
  metered: MeterReport | undefined,
  interpret: () => AgentResult,
): AgentResult {
  const stopped = budgetStop(agent, metered);
  if (stopped) throw stopped;
  try {
    const result = interpret();
    return { ...result, usage: meteredUsage(result.usage, metered) };
  } catch (error) {
    throw withUsage(agent, error, metered);
  }
}
