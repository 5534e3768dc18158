import type { Logger } from "pino";
import type { ProbotOctokit } from "probot";
import { redactUrl } from "../logging/redact-url.js";
import { toGitHubError } from "./github-error.js";

type OctokitClass = typeof ProbotOctokit;

/** What @octokit/plugin-retry hands `retryRequest`: the failed attempt's error, with its request options. */
interface FailedAttempt {
  message?: string;
  request?: { method?: string; url?: string; request?: { retryCount?: number } };
}

interface RetryApi {
  retryRequest: (error: FailedAttempt, retries: number, retryAfter: number) => unknown;
}

/**
 * `Octokit` whose retried requests say so as each attempt fails, at warn: the request, the attempt, why, and
 * how long until it is sent again. @octokit/plugin-retry waits 1, 4 and 9 s between attempts without a word,
 * and an installation's token request, retried within each attempt of the request that needs it, stretches
 * that to minutes: GitHub being unreachable was first heard of when the job failed. The plugin calls
 * `octokit.retry.retryRequest` for every failed attempt it may send again, so that call is where this listens.
 */
export function logGitHubRetries<C extends OctokitClass>(Octokit: C): C {
  return Octokit.plugin((octokit: { log: unknown }, options: { retry?: { retryAfterBaseValue?: number } }) => {
    const retry = (octokit as unknown as { retry?: RetryApi }).retry;
    if (!retry) return {};
    const log = octokit.log as unknown as Logger;
    const baseMs = options.retry?.retryAfterBaseValue ?? 1000;
    const ask = retry.retryRequest;
    retry.retryRequest = (error, retries, retryAfter) => {
      const attempt = (error.request?.request?.retryCount ?? 0) + 1;
      // The last attempt is asked about too; its failure goes to the caller, who reports it.
      if (attempt <= retries) {
        const request = `${error.request?.method ?? "GET"} ${redactUrl(error.request?.url ?? "")}`;
        const failure = toGitHubError(error, request);
        log.warn(
          {
            request,
            attempt,
            attempts: retries + 1,
            retryInMs: retryAfter * baseMs,
            kind: failure.kind,
            ...(failure.status !== undefined ? { status: failure.status } : {}),
            reason: error.message,
          },
          "GitHub request failed; sending it again",
        );
      }
      return ask(error, retries, retryAfter);
    };
    return {};
  }) as C;
}
