/**
 * A GitHub API failure, classified where the call happens:
 * - unprocessable (422): GitHub refused the content (e.g. a comment off the diff)
 * - not-found (404), conflict (409)
 * - auth (401, and 403 that is not a rate limit): the App's credentials no longer work (private key
 *   revoked, installation suspended or removed) or the App lacks a permission; retrying cannot help,
 *   an operator must act (see `authProblem` and `permission`)
 * - rate-limited (403/429 with rate-limit headers; a secondary limit carries `retryAfterMs`),
 *   server (5xx: GitHub answered), unreachable (no answer: refused, no such host, reset, timed out), other
 * A GraphQL answer of 200 with `errors` is classified the same way by its error types (FORBIDDEN is a
 * missing permission, NOT_FOUND, RATE_LIMITED…), with the type kept in `graphqlType`.
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
  /** A GraphQL error: the type GitHub gave it (`FORBIDDEN`, `NOT_FOUND`, `RATE_LIMITED`…); the HTTP status was 200. */
  graphqlType?: string;
}

export class GitHubError extends Error {
  readonly authProblem?: AuthProblem;
  readonly permission?: string;
  readonly retryAfterMs?: number;
  readonly graphqlType?: string;

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
    if (options?.graphqlType) this.graphqlType = options.graphqlType;
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
  const graphql = graphqlAnswer(error);
  if (graphql) return fromGraphqlErrors(graphql, error, action);
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

/** A GraphQL answer of 200 with `errors`: what GitHub said, and the response's headers. */
interface GraphqlAnswer {
  errors: { type?: unknown; message?: unknown }[];
  headers: Record<string, string | undefined>;
}

/**
 * The GraphQL errors a failure carries, when it is GitHub's 200 with `errors`: @octokit/graphql throws a
 * GraphqlResponseError, and the throttling plugin, for RATE_LIMITED, an error holding the response.
 */
function graphqlAnswer(error: unknown): GraphqlAnswer | undefined {
  const e = error as {
    name?: unknown;
    status?: unknown;
    errors?: unknown;
    headers?: Record<string, string | undefined>;
    response?: { headers?: Record<string, string | undefined>; data?: { errors?: unknown } };
  } | null;
  if (!e || typeof e !== "object" || typeof e.status === "number") return undefined;
  if (e.name === "GraphqlResponseError" && Array.isArray(e.errors))
    return { errors: e.errors as GraphqlAnswer["errors"], headers: e.headers ?? {} };
  const errors = e.response?.data?.errors;
  return Array.isArray(errors) ? { errors, headers: e.response?.headers ?? {} } : undefined;
}

/** GraphQL error types as the kinds REST errors have, in the order that decides an answer with several. */
const GRAPHQL_KINDS: [GitHubErrorKind, readonly string[]][] = [
  ["rate-limited", ["RATE_LIMITED"]],
  ["auth", ["FORBIDDEN", "INSUFFICIENT_SCOPES"]],
  ["not-found", ["NOT_FOUND"]],
  ["unprocessable", ["UNPROCESSABLE"]],
  ["server", ["INTERNAL", "SERVICE_UNAVAILABLE", "TIMEOUT"]],
];

function fromGraphqlErrors(answer: GraphqlAnswer, error: unknown, action: string): GitHubError {
  const errors = answer.errors.map((e) => ({ type: String(e.type ?? ""), message: String(e.message ?? "") }));
  const said = errors.map((e) => (e.type ? `${e.type} ${e.message}` : e.message)).join("; ");
  const found = GRAPHQL_KINDS.find(([, types]) => errors.some((e) => types.includes(e.type)));
  // a secondary rate limit can come without a type, in words only
  const kind = found?.[0] ?? (/rate limit|too quickly/i.test(said) ? "rate-limited" : "other");
  const graphqlType = errors.find((e) => found?.[1].includes(e.type))?.type ?? errors[0]?.type;
  const headers = answer.headers;
  const details: GitHubErrorDetails = graphqlType ? { graphqlType } : {};
  if (kind === "auth") {
    details.authProblem = "permission";
    const accepted = headers["x-accepted-github-permissions"];
    if (accepted) details.permission = accepted;
  }
  const retryAfter = Number(headers["retry-after"]);
  if (kind === "rate-limited" && headers["retry-after"] !== undefined && Number.isFinite(retryAfter) && retryAfter >= 0)
    details.retryAfterMs = retryAfter * 1000;
  return new GitHubError(kind, undefined, `${action}: GraphQL ${said}`.trim(), { cause: error, ...details });
}
