import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import type { EnvConfig } from "../../config/env/env-config.js";
import type { Database } from "../../db/database.js";
import { createWebSessionStore } from "../../db/web-session-store.js";
import { appJwt } from "../../github/app-jwt.js";
import { createGitHubUserClient, type AppOwner } from "../../github/github-user-client.js";
import { createOperatorCheck } from "./create-operator-check.js";
import { finishSignIn } from "./finish-sign-in.js";
import { readReadableRepositories } from "./read-readable-repositories.js";
import { serializeCookie } from "./serialize-cookie.js";
import { startSignIn } from "./start-sign-in.js";
import { createTokenSeal } from "./token-seal.js";
import {
  CALLBACK_PATH,
  isSecure,
  redirect,
  SESSION_COOKIE,
  sessionIdOf,
  type WebAuthContext,
} from "./web-auth-context.js";

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

export { CALLBACK_PATH, SESSION_COOKIE, STATE_COOKIE } from "./web-auth-context.js";
export { MAX_SESSION_MS } from "./finish-sign-in.js";

/** Sign-in with GitHub (the App's OAuth web flow), the session cookie, and who may read what. */
export function createWebAuth(deps: WebAuthDeps): WebAuth {
  const { config } = deps;
  const now = deps.now ?? Date.now;
  const oauth = config.web.oauth;
  const client = createGitHubUserClient({
    webOrigin: config.github.webOrigin,
    apiUrl: config.github.baseUrl ?? "https://api.github.com",
    fetch: deps.fetch,
  });
  const context: WebAuthContext = {
    config,
    log: deps.log.child({ name: "web-auth" }),
    now,
    client,
    store: createWebSessionStore(deps.database),
    seal: oauth ? createTokenSeal(oauth.clientSecret) : undefined,
    repositoriesCache: new Map(),
  };
  const app = config.app;
  const readOwner =
    deps.appOwner ?? (app ? () => client.appOwner(appJwt(app.appId, app.privateKey, now())) : undefined);

  async function signedIn(req: IncomingMessage): Promise<WebUser | undefined> {
    if (!oauth) return undefined;
    const sessionId = sessionIdOf(req);
    if (!sessionId) return undefined;
    const row = await context.store.find(sessionId, new Date(now()));
    if (!row) {
      context.repositoriesCache.delete(sessionId);
      return undefined;
    }
    return { sessionId, id: row.userId, login: row.login };
  }

  return {
    enabled: oauth !== undefined,
    signedIn,
    routes: (req, res) => answerAuthRoute(context, req, res, signedIn),
    readableRepositories: (user) => readReadableRepositories(context, user.sessionId),
    isOperator: createOperatorCheck(config.web.admins, readOwner, context.log, now),
  };
}

/** GET /login, GET /oauth/callback and POST /logout (any other method 405); false for any other path. */
async function answerAuthRoute(
  context: WebAuthContext,
  req: IncomingMessage,
  res: ServerResponse,
  signedIn: (req: IncomingMessage) => Promise<WebUser | undefined>,
): Promise<boolean> {
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
  if (url.pathname === "/login") await startSignIn(context, req, res, url, signedIn);
  else if (url.pathname === CALLBACK_PATH) await finishSignIn(context, req, res, url);
  else await signOut(context, req, res);
  return true;
}

async function signOut(context: WebAuthContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const sessionId = sessionIdOf(req);
  if (sessionId) {
    await context.store.delete(sessionId);
    context.repositoriesCache.delete(sessionId);
    context.log.info({}, "web: signed out");
  }
  const cookie = serializeCookie(SESSION_COOKIE, "", { path: "/", maxAge: 0, secure: isSecure(context, req) });
  redirect(res, "/", [cookie], 303);
}
