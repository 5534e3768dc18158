/**
 * A GitHub API failure, classified where the call happens:
 * - unprocessable (422): GitHub refused the content (e.g. a comment off the diff)
 * - not-found (404), forbidden (401/403 without rate limit), conflict (409)
 * - rate-limited (403/429 with rate-limit headers), server (5xx), network (no response), other
 */
export type GitHubErrorKind = "unprocessable" | "not-found" | "forbidden" | "conflict" | "rate-limited" | "server" | "network" | "other";

export class GitHubError extends Error {
  constructor(
    readonly kind: GitHubErrorKind,
    readonly status: number | undefined,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "GitHubError";
  }

  get transient(): boolean {
    return this.kind === "rate-limited" || this.kind === "server" || this.kind === "network";
  }
}

interface RequestErrorLike {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | undefined>; data?: unknown };
}

/** Turns whatever Octokit threw into a GitHubError (the request's what-for goes in `action`). */
export function toGitHubError(error: unknown, action: string): GitHubError {
  if (error instanceof GitHubError) return error;
  const e = (error ?? {}) as RequestErrorLike;
  const status = typeof e.status === "number" ? e.status : undefined;
  const detail = describe(e);
  const message = `${action}: ${status ?? "no response"} ${detail}`.trim();
  const headers = e.response?.headers ?? {};
  let kind: GitHubErrorKind;
  if (status === undefined || status === 500 && /fetch failed|ECONN|ENOTFOUND|socket/i.test(detail)) kind = "network";
  else if (status === 422) kind = "unprocessable";
  else if (status === 404) kind = "not-found";
  else if (status === 409) kind = "conflict";
  else if (status === 429 || (status === 403 && (headers["x-ratelimit-remaining"] === "0" || /rate limit/i.test(detail)))) kind = "rate-limited";
  else if (status === 401 || status === 403) kind = "forbidden";
  else if (status >= 500) kind = "server";
  else kind = "other";
  return new GitHubError(kind, status, message, { cause: error });
}

function describe(e: RequestErrorLike): string {
  const data = e.response?.data as { message?: string; errors?: unknown } | undefined;
  if (data && typeof data === "object" && typeof data.message === "string") {
    const errors = data.errors ? ` ${JSON.stringify(data.errors)}` : "";
    return `${data.message}${errors}`;
  }
  return e.message ?? "";
}
