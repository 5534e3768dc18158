/**
 * A GitHub API failure, classified where the call happens:
 * - unprocessable (422): GitHub refused the content (e.g. a comment off the diff)
 * - not-found (404), conflict (409)
 * - auth (401, and 403 that is not a rate limit): the App's credentials no longer work (private key
 *   revoked, installation suspended or removed) or the App lacks a permission; retrying cannot help,
 *   an operator must act (see `authProblem` and `permission`)
 * - rate-limited (403/429 with rate-limit headers; a secondary limit carries `retryAfterMs`),
 *   server (5xx: GitHub answered), unreachable (no answer: refused, no such host, reset, timed out), other
 */
export type GitHubErrorKind =
  "unprocessable" | "not-found" | "auth" | "conflict" | "rate-limited" | "server" | "unreachable" | "other";

/** Why GitHub refused the App: its credentials, or a permission it was not granted. */
export type AuthProblem = "credentials" | "permission";

export interface GitHubErrorDetails {
  /** auth: what the operator must fix. */
  authProblem?: AuthProblem;
  /** auth/permission: what GitHub says the request needs (X-Accepted-GitHub-Permissions, e.g. `pull_requests=write`). */
  permission?: string;
  /** rate-limited: how long GitHub asked us to wait (Retry-After), when it said. */
  retryAfterMs?: number;
}

export class GitHubError extends Error {
  readonly authProblem?: AuthProblem;
  readonly permission?: string;
  readonly retryAfterMs?: number;

  constructor(
    readonly kind: GitHubErrorKind,
    readonly status: number | undefined,
    message: string,
    options?: { cause?: unknown } & GitHubErrorDetails,
  ) {
    super(message, options?.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = "GitHubError";
    if (options?.authProblem) this.authProblem = options.authProblem;
    if (options?.permission) this.permission = options.permission;
    if (options?.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }

  get transient(): boolean {
    return this.kind === "rate-limited" || this.kind === "server" || this.kind === "unreachable";
  }
}

interface RequestErrorLike {
  status?: number;
  message?: string;
  request?: { method?: string; url?: string };
  response?: { headers?: Record<string, string | undefined>; data?: unknown };
}

/** True for what Octokit throws on an HTTP failure (a RequestError), from whichever copy of the library. */
export function isRequestError(error: unknown): boolean {
  const e = error as RequestErrorLike | null;
  return (
    !!e && typeof e === "object" && typeof e.status === "number" && typeof e.request === "object" && e.request !== null
  );
}

/** Turns whatever Octokit threw into a GitHubError (the request's what-for goes in `action`). */
export function toGitHubError(error: unknown, action: string): GitHubError {
  if (error instanceof GitHubError) return error;
  const e = (error ?? {}) as RequestErrorLike;
  // Octokit reports a request that got no answer (refused, no such host, reset, timed out) as a 500 without a
  // response: GitHub said nothing, so there is no status.
  const unanswered = e.response === undefined && (e.status === undefined || e.status === 500);
  const status = typeof e.status === "number" && !unanswered ? e.status : undefined;
  const detail = describe(e);
  // Octokit fetches the installation token on an installation's first request: its failure is that request's.
  const via =
    /\/access_tokens$/.test(e.request?.url ?? "") && !/installation token/.test(action) ? " (installation token)" : "";
  const message = unanswered
    ? `${action}${via}: no answer from GitHub (${detail || "no response"})`
    : `${action}${via}: ${status} ${detail}`.trim();
  const headers = e.response?.headers ?? {};
  const retryAfter = Number(headers["retry-after"]);
  const retryAfterMs =
    headers["retry-after"] !== undefined && Number.isFinite(retryAfter) && retryAfter >= 0
      ? retryAfter * 1000
      : undefined;
  const details: GitHubErrorDetails = {};
  let kind: GitHubErrorKind;
  if (status === undefined) kind = "unreachable";
  else if (status === 422) kind = "unprocessable";
  else if (status === 404) kind = "not-found";
  else if (status === 409) kind = "conflict";
  else if (
    status === 429 ||
    (status === 403 &&
      (headers["x-ratelimit-remaining"] === "0" || retryAfterMs !== undefined || /rate limit/i.test(detail)))
  ) {
    kind = "rate-limited";
    if (retryAfterMs !== undefined) details.retryAfterMs = retryAfterMs;
  } else if (status === 401 || status === 403) {
    kind = "auth";
    // 401: the App's JWT or token is refused (private key revoked or rotated, installation removed); a
    // suspended installation answers 403 "This installation has been suspended". Any other 403: a permission.
    details.authProblem =
      status === 401 || /suspended|bad credentials|json web token|installation.*(removed|deleted)/i.test(detail)
        ? "credentials"
        : "permission";
    const accepted = headers["x-accepted-github-permissions"];
    if (details.authProblem === "permission" && accepted) details.permission = accepted;
  } else if (status >= 500) kind = "server";
  else kind = "other";
  return new GitHubError(kind, status, message, { cause: error, ...details });
}

function describe(e: RequestErrorLike): string {
  const data = e.response?.data as { message?: string; errors?: unknown } | undefined;
  if (data && typeof data === "object" && typeof data.message === "string") {
    const errors = data.errors ? ` ${JSON.stringify(data.errors)}` : "";
    return `${data.message}${errors}`;
  }
  return e.message ?? "";
}
