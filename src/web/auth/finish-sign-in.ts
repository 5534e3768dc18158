import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { GitHubError } from "../../github/github-error.js";
import { OAuthExchangeError } from "../../github/github-user-client.js";
import { sendAuthPage } from "./auth-page.js";
import { readCookie } from "./read-cookie.js";
import { safeNextPath } from "./safe-next-path.js";
import { serializeCookie } from "./serialize-cookie.js";
import { sendNotConfigured } from "./start-sign-in.js";
import {
  clearStateCookie,
  isSecure,
  redirect,
  redirectUri,
  SESSION_COOKIE,
  sessionIdOf,
  sha256,
  STATE_COOKIE,
  type WebAuthContext,
} from "./web-auth-context.js";

/** The longest a session lives, whatever the token's own lifetime. */
export const MAX_SESSION_MS = 8 * 3_600_000;

/** Who GitHub says signed in, their token and how long the session may last. */
interface SignedInAs {
  token: string;
  lifetimeMs: number;
  user: { id: number; login: string };
}

/**
 * GET /oauth/callback: the state checked against its cookie (which goes, whatever happens), GitHub's code
 * exchanged for the person's token, then their session started and the person sent on to where they were going.
 */
export async function finishSignIn(
  context: WebAuthContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  if (!context.config.web.oauth || !context.seal) return sendNotConfigured(context, req, res);
  res.setHeader("set-cookie", [clearStateCookie(context, req)]);
  const next = checkedNextPath(context, req, res, url);
  if (next === undefined) return;
  const refused = url.searchParams.get("error");
  if (refused) {
    context.log.info({ error: refused }, "web: GitHub sign-in refused");
    return sendAuthPage(res, 400, "Sign-in was not completed", [
      `GitHub answered: ${url.searchParams.get("error_description") ?? refused}.`,
      "Start again from /login.",
    ]);
  }
  const code = url.searchParams.get("code");
  if (!code) return sendAuthPage(res, 400, "Sign-in could not be checked", ["GitHub's answer carried no code."]);
  const signedIn = await exchangeCode(context, req, res, code);
  if (signedIn) await startSession(context, req, res, signedIn, next);
}

/** Where to go after signing in, from the state cookie; undefined (the page sent) when the state does not match. */
function checkedNextPath(
  context: WebAuthContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): string | undefined {
  const [expected, encodedNext] = (readCookie(req, STATE_COOKIE) ?? "").split(".");
  const given = url.searchParams.get("state");
  if (!expected || !given || !timingSafeEqual(sha256(expected), sha256(given))) {
    context.log.warn(
      { stateCookie: expected !== undefined && expected !== "", stateParam: given !== null },
      "web: sign-in state did not match",
    );
    sendAuthPage(res, 400, "Sign-in could not be checked", [
      "This sign-in did not start here, or took too long (the check that it is yours expired). Start again from /login.",
    ]);
    return undefined;
  }
  return safeNextPath(Buffer.from(encodedNext ?? "", "base64url").toString("utf8"));
}

/** GitHub's code for the person's token and who they are; undefined (the page sent) when GitHub refused or failed. */
async function exchangeCode(
  context: WebAuthContext,
  req: IncomingMessage,
  res: ServerResponse,
  code: string,
): Promise<SignedInAs | undefined> {
  const oauth = context.config.web.oauth!;
  try {
    const exchanged = await context.client.exchangeCode({
      clientId: oauth.clientId,
      clientSecret: oauth.clientSecret,
      code,
      redirectUri: redirectUri(context, req),
    });
    const lifetimeMs =
      exchanged.expiresInSeconds === undefined
        ? MAX_SESSION_MS
        : Math.min(exchanged.expiresInSeconds * 1000, MAX_SESSION_MS);
    return { token: exchanged.token, lifetimeMs, user: await context.client.user(exchanged.token) };
  } catch (error) {
    if (error instanceof OAuthExchangeError) {
      context.log.warn({ error: error.code }, "web: GitHub refused the sign-in code");
      sendAuthPage(res, 400, "Sign-in failed", [
        `GitHub refused the sign-in code (${error.code}). It may have been used already or expired; start again from /login.`,
        ...(error.code === "incorrect_client_credentials" || error.code === "redirect_uri_mismatch"
          ? [`Check GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET and the App's callback URL (${redirectUri(context, req)}).`]
          : []),
      ]);
      return undefined;
    }
    if (error instanceof GitHubError) {
      context.log.warn(
        { kind: error.kind, status: error.status, err: error.message },
        "web: sign-in could not reach GitHub",
      );
      sendAuthPage(res, 502, "Sign-in failed", ["GitHub did not answer as expected; try again shortly."]);
      return undefined;
    }
    throw error;
  }
}

/** The session row (its token sealed) and its cookie; the browser's earlier session and expired ones go. */
async function startSession(
  context: WebAuthContext,
  req: IncomingMessage,
  res: ServerResponse,
  { token, lifetimeMs, user }: SignedInAs,
  next: string,
): Promise<void> {
  const { store, now } = context;
  const cookieValue = randomBytes(32).toString("base64url");
  const sessionId = sha256(cookieValue).toString("hex");
  // A browser signing in again leaves its earlier session behind: that row goes, as do expired ones.
  const earlier = sessionIdOf(req);
  if (earlier) {
    await store.delete(earlier);
    context.repositoriesCache.delete(earlier);
  }
  await store.deleteExpired(new Date(now()));
  await store.create({
    id: sessionId,
    userId: user.id,
    login: user.login,
    tokenCiphertext: context.seal!.seal(token, sessionId),
    expiresAt: new Date(now() + lifetimeMs),
  });
  context.log.info(
    { login: user.login, userId: user.id, hours: Math.round(lifetimeMs / 360_000) / 10 },
    "web: signed in",
  );
  redirect(res, next, [
    clearStateCookie(context, req),
    serializeCookie(SESSION_COOKIE, cookieValue, {
      path: "/",
      maxAge: lifetimeMs / 1000,
      secure: isSecure(context, req),
    }),
  ]);
}
