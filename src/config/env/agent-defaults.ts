/**
 * The size (input tokens of its largest request) past which a stored session is not resumed but rolled
 * over (AGENT_SESSION_MAX_TOKENS): half of a 200k-token window, so a resumed turn's own requests (tool
 * results, the answer) fit in what is left, and a resumed request stays cheap to resend.
 */
export const DEFAULT_SESSION_BUDGET_TOKENS = 100_000;

/** How long a provider keeps a prompt cache entry after its last use (AGENT_CACHE_TTL): Anthropic's and OpenAI's default, 5 minutes. */
export const DEFAULT_CACHE_TTL_MS = 5 * 60_000;
