import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import type { EnvConfig } from "../../config/env/env-config.js";
import type { Database } from "../../db/database.js";
import { appJwt } from "../../github/app-jwt.js";
import { GitHubError } from "../../github/github-error.js";
import { createGitHubUserClient, OAuthExchangeError, type AppOwner } from "../../github/github-user-client.js";
import { sendAuthPage } from "./auth-page.js";
import { OAUTH_CALLBACK_PATH } from "../../domain/oauth-callback-path.js";
import { readCookie } from "./read-cookie.js";
import { cameOverTls, requestOrigin } from "./request-origin.js";
import { safeNextPath } from "./safe-next-path.js";
import { serializeCookie } from "./serialize-cookie.js";
import { createTokenSeal } from "./token-seal.js";
import { createWebSessionStore } from "../../db/web-session-store.js";

/** The signed-in person: their GitHub id and login, and the session they are signed in with. */
export interface WebUser {
  sessionId: string;
  id: number;
  login: string;
}

export interface WebAuth {
  /** Handles GET /login (?next=/path, only same-site relative paths kept), GET /oauth/callback, POST /logout; false for any other path. */
  routes(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** The signed-in person from the session cookie, or undefined (expired/unknown/missing). */
  signedIn(req: IncomingMessage): Promise<WebUser | undefined>;
  /**
   * Repository ids the person can read through the App's installations, checked with their own token,
   * cached ~60 s per session in memory. Undefined when the session has ended — GitHub refused the token
   * (401: revoked), or it expired or was signed out meanwhile — so the person is sent to sign in again;
   * any other GitHub failure throws its GitHubError.
   */
  readableRepositories(user: WebUser): Promise<Set<number> | undefined>;
  /**
   * The App's owner when it is a User (GET /app as the App), or a WEB_ADMINS id: matched by GitHub user id,
   * never by login (a login given up can be taken by another account).
   */
  isOperator(user: WebUser): Promise<boolean>;
  /** Whether OAuth is configured at all (GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET). */
  enabled: boolean;
}

export interface WebAuthDeps {
  database: Database;
  config: Pick<EnvConfig, "web" | "github" | "publicUrl"> & {
    app?: Pick<NonNullable<EnvConfig["app"]>, "appId" | "privateKey">;
  };
  log: Logger;
  /** Who owns the App; default: GET /app as the App when `config.app` is given, else nobody (WEB_ADMINS only). */
  appOwner?: () => Promise<AppOwner | undefined>;
  fetch?: typeof globalThis.fetch;
  /** The clock (tests move it past a session's end). */
  now?: () => number;
}

export const SESSION_COOKIE = "nm_session";
export const STATE_COOKIE = "nm_oauth_state";
export const CALLBACK_PATH = OAUTH_CALLBACK_PATH;
/** The longest a session lives, whatever the token's own lifetime. */
export const MAX_SESSION_MS = 8 * 3_600_000;
const STATE_TTL_SECONDS = 600;
const REPOSITORIES_TTL_MS = 60_000;
const OWNER_TTL_MS = 10 * 60_000;
const OWNER_RETRY_MS = 30_000;

const sha256 = (text: string) => createHash("sha256").update(text).digest();

/** Sign-in with GitHub (the App's OAuth web flow), the session cookie, and who may read what. */
export function createWebAuth(deps: WebAuthDeps): WebAuth {
  const { config } = deps;
  const log = deps.log.child({ name: "web-auth" });
  const now = deps.now ?? Date.now;
  const oauth = config.web.oauth;
  const webOrigin = config.github.webOrigin;
  const client = createGitHubUserClient({
    webOrigin,
    apiUrl: config.github.baseUrl ?? "https://api.github.com",
    fetch: deps.fetch,
  });
  const store = createWebSessionStore(deps.database);
  const seal = oauth ? createTokenSeal(oauth.clientSecret) : undefined;
  const repositoriesCache = new Map<string, { until: number; ids: Set<number> }>();
  const app = config.app;
  const readOwner =
    deps.appOwner ?? (app ? () => client.appOwner(appJwt(app.appId, app.privateKey, now())) : undefined);
  let ownerCache: { until: number; owner: AppOwner | undefined } | undefined;

  const secure = (req: IncomingMessage) => config.publicUrl?.startsWith("https:") === true || cameOverTls(req);
  const redirectUri = (req: IncomingMessage) => `${config.publicUrl ?? requestOrigin(req)}${CALLBACK_PATH}`;
  const sessionIdOf = (req: IncomingMessage) => {
    const value = readCookie(req, SESSION_COOKIE);
    return value ? sha256(value).toString("hex") : undefined;
  };
  const clearState = (req: IncomingMessage) =>
    serializeCookie(STATE_COOKIE, "", { path: CALLBACK_PATH, maxAge: 0, secure: secure(req) });

  function redirect(res: ServerResponse, location: string, cookies: string[] = [], status = 302): void {
    res.writeHead(status, {
      location,
      "cache-control": "no-store",
      ...(cookies.length > 0 ? { "set-cookie": cookies } : {}),
    });
    res.end();
  }

  function notConfigured(req: IncomingMessage, res: ServerResponse): void {
    sendAuthPage(res, 503, "Sign-in is not set up", [
      "The run view signs people in with the GitHub App's OAuth client, and this app has none configured.",
      "Set GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET to the App's Client ID and a client secret (the App's settings on GitHub, General; the setup flow saves both to .env), then restart.",
      `Register this callback URL in the App's settings (Identifying and authorizing users, Callback URL): ${redirectUri(req)}`,
    ]);
  }

  async function login(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (!oauth) return notConfigured(req, res);
    const next = safeNextPath(url.searchParams.get("next"));
    if (await signedIn(req)) return redirect(res, next);
    const state = randomBytes(32).toString("base64url");
    const authorize = new URL(`${webOrigin}/login/oauth/authorize`);
    authorize.searchParams.set("client_id", oauth.clientId);
    authorize.searchParams.set("redirect_uri", redirectUri(req));
    authorize.searchParams.set("state", state);
    const cookie = serializeCookie(STATE_COOKIE, `${state}.${Buffer.from(next).toString("base64url")}`, {
      path: CALLBACK_PATH,
      maxAge: STATE_TTL_SECONDS,
      secure: secure(req),
    });
    redirect(res, authorize.toString(), [cookie]);
  }

  async function callback(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (!oauth || !seal) return notConfigured(req, res);
    res.setHeader("set-cookie", [clearState(req)]);
    const [expected, encodedNext] = (readCookie(req, STATE_COOKIE) ?? "").split(".");
    const given = url.searchParams.get("state");
    if (!expected || !given || !timingSafeEqual(sha256(expected), sha256(given))) {
      log.warn(
        { stateCookie: expected !== undefined && expected !== "", stateParam: given !== null },
        "web: sign-in state did not match",
      );
      return sendAuthPage(res, 400, "Sign-in could not be checked", [
        "This sign-in did not start here, or took too long (the check that it is yours expired). Start again from /login.",
      ]);
    }
    const next = safeNextPath(Buffer.from(encodedNext ?? "", "base64url").toString("utf8"));
    const refused = url.searchParams.get("error");
    if (refused) {
      log.info({ error: refused }, "web: GitHub sign-in refused");
      return sendAuthPage(res, 400, "Sign-in was not completed", [
        `GitHub answered: ${url.searchParams.get("error_description") ?? refused}.`,
        "Start again from /login.",
      ]);
    }
    const code = url.searchParams.get("code");
    if (!code) return sendAuthPage(res, 400, "Sign-in could not be checked", ["GitHub's answer carried no code."]);

    let token: string;
    let lifetimeMs = MAX_SESSION_MS;
    let user: { id: number; login: string };
    try {
      const exchanged = await client.exchangeCode({
        clientId: oauth.clientId,
        clientSecret: oauth.clientSecret,
        code,
        redirectUri: redirectUri(req),
      });
      token = exchanged.token;
      if (exchanged.expiresInSeconds !== undefined)
        lifetimeMs = Math.min(exchanged.expiresInSeconds * 1000, MAX_SESSION_MS);
      user = await client.user(token);
    } catch (error) {
      if (error instanceof OAuthExchangeError) {
        log.warn({ error: error.code }, "web: GitHub refused the sign-in code");
        return sendAuthPage(res, 400, "Sign-in failed", [
          `GitHub refused the sign-in code (${error.code}). It may have been used already or expired; start again from /login.`,
          ...(error.code === "incorrect_client_credentials" || error.code === "redirect_uri_mismatch"
            ? [`Check GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET and the App's callback URL (${redirectUri(req)}).`]
            : []),
        ]);
      }
      if (error instanceof GitHubError) {
        log.warn({ kind: error.kind, status: error.status, err: error.message }, "web: sign-in could not reach GitHub");
        return sendAuthPage(res, 502, "Sign-in failed", ["GitHub did not answer as expected; try again shortly."]);
      }
      throw error;
    }

    const cookieValue = randomBytes(32).toString("base64url");
    const sessionId = sha256(cookieValue).toString("hex");
    // A browser signing in again leaves its earlier session behind: that row goes, as do expired ones.
    const earlier = sessionIdOf(req);
    if (earlier) {
      await store.delete(earlier);
      repositoriesCache.delete(earlier);
    }
    await store.deleteExpired(new Date(now()));
    await store.create({
      id: sessionId,
      userId: user.id,
      login: user.login,
      tokenCiphertext: seal.seal(token, sessionId),
      expiresAt: new Date(now() + lifetimeMs),
    });
    log.info({ login: user.login, userId: user.id, hours: Math.round(lifetimeMs / 360_000) / 10 }, "web: signed in");
    redirect(res, next, [
      clearState(req),
      serializeCookie(SESSION_COOKIE, cookieValue, { path: "/", maxAge: lifetimeMs / 1000, secure: secure(req) }),
    ]);
  }

  async function logout(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const sessionId = sessionIdOf(req);
    if (sessionId) {
      await store.delete(sessionId);
      repositoriesCache.delete(sessionId);
      log.info({}, "web: signed out");
    }
    redirect(res, "/", [serializeCookie(SESSION_COOKIE, "", { path: "/", maxAge: 0, secure: secure(req) })], 303);
  }

  async function signedIn(req: IncomingMessage): Promise<WebUser | undefined> {
    if (!oauth) return undefined;
    const sessionId = sessionIdOf(req);
    if (!sessionId) return undefined;
    const row = await store.find(sessionId, new Date(now()));
    if (!row) {
      repositoriesCache.delete(sessionId);
      return undefined;
    }
    return { sessionId, id: row.userId, login: row.login };
  }

  async function endSession(sessionId: string, why: string): Promise<undefined> {
    await store.delete(sessionId);
    repositoriesCache.delete(sessionId);
    log.info({ why }, "web: session ended");
    return undefined;
  }

  return {
    enabled: oauth !== undefined,
    signedIn,

    async routes(req, res) {
      const url = new URL(req.url ?? "/", "http://request.invalid");
      const route = { "/login": "GET", [CALLBACK_PATH]: "GET", "/logout": "POST" }[url.pathname];
      if (!route) return false;
      // HEAD is a GET without the body for /login; never for the callback, where a GET spends GitHub's code
      // (a link checker's HEAD must not sign anyone in)
      if (req.method !== route && !(url.pathname === "/login" && req.method === "HEAD")) {
        res.writeHead(405, { allow: route, "content-type": "text/plain; charset=utf-8" });
        res.end(`Use ${route} for ${url.pathname}.\n`);
        return true;
      }
      if (url.pathname === "/login") await login(req, res, url);
      else if (url.pathname === CALLBACK_PATH) await callback(req, res, url);
      else await logout(req, res);
      return true;
    },

    async readableRepositories(user) {
      const cached = repositoriesCache.get(user.sessionId);
      if (cached && cached.until > now()) return new Set(cached.ids);
      const row = await store.find(user.sessionId, new Date(now()));
      if (!row) return undefined; // expired, or signed out in another tab, since the cookie was read
      if (!seal) return new Set();
      const token = seal.open(row.tokenCiphertext, row.id);
      if (token === undefined)
        return endSession(user.sessionId, "the stored token cannot be opened (GITHUB_CLIENT_SECRET changed?)");
      let ids: Set<number>;
      try {
        ids = await client.reachableRepositoryIds(token);
      } catch (error) {
        if (error instanceof GitHubError && error.status === 401)
          return endSession(user.sessionId, "GitHub refused the person's token");
        throw error;
      }
      for (const [id, entry] of repositoriesCache) if (entry.until <= now()) repositoriesCache.delete(id);
      repositoriesCache.set(user.sessionId, { until: now() + REPOSITORIES_TTL_MS, ids });
      return new Set(ids);
    },

    async isOperator(user) {
      if (config.web.admins.includes(user.id)) return true;
      if (!readOwner) return false;
      if (!ownerCache || ownerCache.until <= now()) {
        try {
          ownerCache = { until: now() + OWNER_TTL_MS, owner: await readOwner() };
        } catch (error) {
          log.warn(
            { err: error instanceof Error ? error.message : String(error) },
            "web: could not read the App's owner",
          );
          // Asked again after a short while, not on every page while GitHub fails.
          ownerCache = { until: now() + OWNER_RETRY_MS, owner: undefined };
          return false;
        }
      }
      const owner = ownerCache.owner;
      return owner?.type === "User" && owner.id === user.id;
    },
  };
}
