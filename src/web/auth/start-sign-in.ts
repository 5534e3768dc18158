import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendAuthPage } from "./auth-page.js";
import { safeNextPath } from "./safe-next-path.js";
import { serializeCookie } from "./serialize-cookie.js";
import {
  CALLBACK_PATH,
  isSecure,
  redirect,
  redirectUri,
  STATE_COOKIE,
  type WebAuthContext,
} from "./web-auth-context.js";

const STATE_TTL_SECONDS = 600;

/**
 * GET /login: someone signed in goes straight to `next`; anyone else to GitHub's authorize page, with a random
 * state kept (with `next`) in a cookie only the callback is sent, for the callback to check.
 */
export async function startSignIn(
  context: WebAuthContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  signedIn: (req: IncomingMessage) => Promise<unknown>,
): Promise<void> {
  const oauth = context.config.web.oauth;
  if (!oauth) return sendNotConfigured(context, req, res);
  const next = safeNextPath(url.searchParams.get("next"));
  if (await signedIn(req)) return redirect(res, next);
  const state = randomBytes(32).toString("base64url");
  const authorize = new URL(`${context.config.github.webOrigin}/login/oauth/authorize`);
  authorize.searchParams.set("client_id", oauth.clientId);
  authorize.searchParams.set("redirect_uri", redirectUri(context, req));
  authorize.searchParams.set("state", state);
  const cookie = serializeCookie(STATE_COOKIE, `${state}.${Buffer.from(next).toString("base64url")}`, {
    path: CALLBACK_PATH,
    maxAge: STATE_TTL_SECONDS,
    secure: isSecure(context, req),
  });
  redirect(res, authorize.toString(), [cookie]);
}

/** The page that says sign-in has no OAuth client to use, and how to give it one. */
export function sendNotConfigured(context: WebAuthContext, req: IncomingMessage, res: ServerResponse): void {
  sendAuthPage(res, 503, "Sign-in is not set up", [
    "The run view signs people in with the GitHub App's OAuth client, and this app has none configured.",
    "Set GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET to the App's Client ID and a client secret (the App's settings on GitHub, General; the setup flow saves both to .env), then restart.",
    `Register this callback URL in the App's settings (Identifying and authorizing users, Callback URL): ${redirectUri(context, req)}`,
  ]);
}
