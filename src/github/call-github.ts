import { setTimeout as sleep } from "node:timers/promises";
import { toGitHubError } from "./github-error.js";

/** The longest Retry-After waited for in place; a longer one fails the call (the job is retried later). */
export const MAX_RETRY_AFTER_MS = 120_000;

/**
 * One GitHub request; every failure becomes a GitHubError. A secondary rate limit (403/429 with
 * `Retry-After`) is waited out and the request sent ONCE more: Probot's throttling plugin only logs
 * those ("Secondary quota detected") and throws, and pg-boss's retry (30 s, doubling) knows nothing of
 * Retry-After. Nothing else is retried here: 401/403 (`auth`) never succeed by asking again.
 */
export async function callGitHub<T>(action: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    const failure = toGitHubError(error, action);
    if (
      failure.kind !== "rate-limited" ||
      failure.retryAfterMs === undefined ||
      failure.retryAfterMs > MAX_RETRY_AFTER_MS
    )
      throw failure;
    await sleep(failure.retryAfterMs);
    try {
      return await fn();
    } catch (again) {
      throw toGitHubError(again, action);
    }
  }
}
