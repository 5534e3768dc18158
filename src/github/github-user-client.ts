import { GitHubError, toGitHubError } from "./github-error.js";

/** A person as GET /user answers with their own token. */
export interface GitHubUser {
  id: number;
  login: string;
}

/** The App's owner as GET /app answers (a User or an Organization). */
export interface AppOwner {
  login: string;
  id: number;
  type: string;
}

/** A user token from the OAuth code exchange; `expiresInSeconds` when GitHub expires it (App user tokens do). */
export interface UserToken {
  token: string;
  expiresInSeconds?: number;
}

/**
 * GitHub refused the OAuth code exchange with an `error` answer (bad_verification_code,
 * incorrect_client_credentials, redirect_uri_mismatch, …): nothing to retry, the sign-in starts over.
 */
export class OAuthExchangeError extends Error {
  constructor(
    readonly code: string,
    readonly description: string | undefined,
  ) {
    super(`GitHub refused the sign-in code: ${code}${description ? ` (${description})` : ""}`);
    this.name = "OAuthExchangeError";
  }
}

export interface GitHubUserClient {
  /** POST {web}/login/oauth/access_token: the code GitHub's redirect carried, for a user token. */
  exchangeCode(options: {
    clientId: string;
    clientSecret: string;
    code: string;
    redirectUri: string;
  }): Promise<UserToken>;
  /** GET /user with the person's token. */
  user(token: string): Promise<GitHubUser>;
  /** The ids of every repository the person reaches through the App's installations (/user/installations, paginated). */
  reachableRepositoryIds(token: string): Promise<Set<number>>;
  /** GET /app as the App (its JWT): who owns it. */
  appOwner(appJwt: string): Promise<AppOwner | undefined>;
}

type Fetch = typeof globalThis.fetch;

const PER_PAGE = 100;

/**
 * GitHub as the run view's sign-in sees it: the OAuth web flow's code exchange on the web host, and the
 * REST calls made with the person's own token. Every failure is a GitHubError (a revoked token: `auth`
 * with status 401) or an OAuthExchangeError; tokens appear in no message.
 */
export function createGitHubUserClient(options: {
  webOrigin: string;
  apiUrl: string;
  fetch?: Fetch;
}): GitHubUserClient {
  const fetchFn = options.fetch ?? globalThis.fetch;
  const api = options.apiUrl.replace(/\/+$/, "");
  const send: Send = (action, url, init) => sendToGitHub(fetchFn, action, url, init);
  return {
    exchangeCode: (exchange) => exchangeCode(send, options.webOrigin, exchange),

    async user(token) {
      const { data } = await send("GET /user", `${api}/user`, asUser(token));
      const user = data as { id?: unknown; login?: unknown } | undefined;
      if (typeof user?.id !== "number" || typeof user.login !== "string")
        throw new GitHubError("other", 200, "GET /user: the answer names no user");
      return { id: user.id, login: user.login };
    },

    async reachableRepositoryIds(token) {
      const installations = await paginate<{ id: number }>(
        send,
        "GET /user/installations",
        `${api}/user/installations?per_page=${PER_PAGE}`,
        "installations",
        token,
      );
      const ids = new Set<number>();
      for (const installation of installations) {
        const repositories = await paginate<{ id: number }>(
          send,
          `GET /user/installations/${installation.id}/repositories`,
          `${api}/user/installations/${installation.id}/repositories?per_page=${PER_PAGE}`,
          "repositories",
          token,
        );
        for (const repository of repositories) ids.add(repository.id);
      }
      return ids;
    },

    async appOwner(appJwt) {
      const { data } = await send("GET /app", `${api}/app`, asUser(appJwt));
      const owner = (data as { owner?: { login?: unknown; id?: unknown; type?: unknown } | null } | undefined)?.owner;
      return typeof owner?.login === "string" && typeof owner.id === "number" && typeof owner.type === "string"
        ? { login: owner.login, id: owner.id, type: owner.type }
        : undefined;
    },
  };
}

type Send = (action: string, url: string, init: RequestInit) => Promise<{ data: unknown; headers: Headers }>;

/** One request to GitHub: its answer read (JSON when it is), a failure or a refusal thrown as a GitHubError. */
async function sendToGitHub(
  fetchFn: Fetch,
  action: string,
  url: string,
  init: RequestInit,
): Promise<{ data: unknown; headers: Headers }> {
  let response: Response;
  try {
    response = await fetchFn(url, init);
  } catch (error) {
    throw new GitHubError("unreachable", undefined, `${action}: no answer from GitHub (${(error as Error).message})`, {
      cause: error,
    });
  }
  const text = await response.text();
  let data: unknown = text;
  try {
    data = text === "" ? undefined : JSON.parse(text);
  } catch {
    // not JSON: kept as text for the error message
  }
  if (!response.ok) {
    const headers = Object.fromEntries(response.headers.entries());
    throw toGitHubError(
      { status: response.status, request: { method: init.method ?? "GET", url }, response: { headers, data } },
      action,
    );
  }
  return { data, headers: response.headers };
}

const asUser = (token: string): RequestInit => ({
  headers: {
    accept: "application/vnd.github+json",
    authorization: `Bearer ${token}`,
    "x-github-api-version": "2022-11-28",
  },
});

/** Every page of a list GitHub wraps in `{ total_count, [key]: [...] }`, following `Link: rel="next"`. */
async function paginate<T>(send: Send, action: string, first: string, key: string, token: string): Promise<T[]> {
  const items: T[] = [];
  let url: string | undefined = first;
  while (url) {
    const { data, headers } = await send(action, url, asUser(token));
    const page = (data as Record<string, unknown> | undefined)?.[key];
    if (!Array.isArray(page)) throw new GitHubError("other", 200, `${action}: the answer has no ${key} list`);
    items.push(...(page as T[]));
    url = nextLink(headers.get("link"));
  }
  return items;
}

/** POST {web}/login/oauth/access_token: GitHub's `error` answer an OAuthExchangeError, else the token. */
async function exchangeCode(
  send: Send,
  webOrigin: string,
  { clientId, clientSecret, code, redirectUri }: Parameters<GitHubUserClient["exchangeCode"]>[0],
): Promise<UserToken> {
  const body = new URLSearchParams({
    client_id: clientId,
    client_secret: clientSecret,
    code,
    redirect_uri: redirectUri,
  });
  const { data } = await send("exchange the sign-in code", `${webOrigin}/login/oauth/access_token`, {
    method: "POST",
    headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
    body: body.toString(),
  });
  const answer = (data ?? {}) as Record<string, unknown>;
  if (typeof answer.error === "string")
    throw new OAuthExchangeError(
      answer.error,
      typeof answer.error_description === "string" ? answer.error_description : undefined,
    );
  if (typeof answer.access_token !== "string" || answer.access_token === "")
    throw new OAuthExchangeError("no_access_token", "the answer carried no access_token");
  const expiresIn = Number(answer.expires_in);
  return {
    token: answer.access_token,
    ...(answer.expires_in !== undefined && Number.isFinite(expiresIn) && expiresIn > 0
      ? { expiresInSeconds: expiresIn }
      : {}),
  };
}

/** The `rel="next"` address of a Link header, if any. */
function nextLink(link: string | null): string | undefined {
  for (const part of (link ?? "").split(",")) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (match) return match[1];
  }
  return undefined;
}
