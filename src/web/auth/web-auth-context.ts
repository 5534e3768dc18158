import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import type { EnvConfig } from "../../config/env/env-config.js";
import type { createWebSessionStore } from "../../db/web-session-store.js";
import { OAUTH_CALLBACK_PATH } from "../../domain/oauth-callback-path.js";
import type { createGitHubUserClient } from "../../github/github-user-client.js";
import { readCookie } from "./read-cookie.js";
import { cameOverTls, requestOrigin } from "./request-origin.js";
import { serializeCookie } from "./serialize-cookie.js";
import type { createTokenSeal } from "./token-seal.js";

export const SESSION_COOKIE = "nm_session";
export const STATE_COOKIE = "nm_oauth_state";
export const CALLBACK_PATH = OAUTH_CALLBACK_PATH;

/**
 * What the sign-in's parts share (createWebAuth makes one): the configuration, the clock, GitHub as the person,
 * the session rows, the token seal (none without OAuth), and each session's readable repositories kept a while.
 */
export interface WebAuthContext {
  config: Pick<EnvConfig, "web" | "github" | "publicUrl">;
  log: Logger;
  now: () => number;
  client: ReturnType<typeof createGitHubUserClient>;
  store: ReturnType<typeof createWebSessionStore>;
  seal: ReturnType<typeof createTokenSeal> | undefined;
  repositoriesCache: Map<string, { until: number; ids: Set<number> }>;
}

export const sha256 = (text: string) => createHash("sha256").update(text).digest();

/** Cookies are Secure when the app's public URL is https or the request came over TLS. */
export const isSecure = (context: WebAuthContext, req: IncomingMessage) =>
  context.config.publicUrl?.startsWith("https:") === true || cameOverTls(req);

/** Where GitHub sends the person back: the public URL's callback, else this request's origin's. */
export const redirectUri = (context: WebAuthContext, req: IncomingMessage) =>
  `${context.config.publicUrl ?? requestOrigin(req)}${CALLBACK_PATH}`;

/** The session row's id for the request's session cookie (the SHA-256 of its value), if it has one. */
export function sessionIdOf(req: IncomingMessage): string | undefined {
  const value = readCookie(req, SESSION_COOKIE);
  return value ? sha256(value).toString("hex") : undefined;
}

/** The Set-Cookie that removes the sign-in's state cookie. */
export const clearStateCookie = (context: WebAuthContext, req: IncomingMessage) =>
  serializeCookie(STATE_COOKIE, "", { path: CALLBACK_PATH, maxAge: 0, secure: isSecure(context, req) });

export function redirect(res: ServerResponse, location: string, cookies: string[] = [], status = 302): void {
  res.writeHead(status, {
    location,
    "cache-control": "no-store",
    ...(cookies.length > 0 ? { "set-cookie": cookies } : {}),
  });
  res.end();
}
