// The setup room: registering the GitHub App before APP_ID is set. Probot's setup flow (load-setup-app)
// answers only whoever opens the one-time URL from the start-up log (this file, the guard); it gets a
// webhook URL GitHub can reach (resolve-setup-webhook, a new smee.io channel from create-smee-channel),
// says on its page where GitHub will send them (show-webhook-on-setup-page), and writes the new App's
// credentials to ENV_FILE (save-env-file).

import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, Server as HttpServer, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { printableHost } from "../printable-host.js";

type Handler = (req: IncomingMessage, res: ServerResponse) => boolean | void | Promise<boolean | void>;
type HandlerFactory<A, O> = (app: A, options: O) => Handler | Promise<Handler>;

/** The query parameter that carries the one-time setup code (printed once, in the start-up log). */
export const SETUP_CODE_PARAM = "setup_code";
/** Proof for every setup route: SameSite=Strict, so no other site's page can send it. */
export const SETUP_COOKIE = "no_mistakes_setup";
/**
 * Proof for GitHub's redirect back to `/probot/setup` only: a top-level navigation from github.com
 * carries SameSite=Lax cookies but not Strict ones. Accepted only together with the `state` that
 * the setup page added to the manifest form (GitHub hands it back), so a page elsewhere cannot make
 * the browser convert a manifest code of its choosing.
 */
export const SETUP_RETURN_COOKIE = "no_mistakes_setup_return";
const STATE_PARAM = "state";
const MANIFEST_CALLBACK = "/probot/setup";

export interface SetupRouteGuardOptions {
  /** Tests pass a known code; otherwise 256 random bits. */
  code?: string;
  /** Once true (Probot's setup wrote APP_ID into the environment) only the success page is served. */
  registered?: () => boolean;
}

export interface SetupRouteGuard {
  /** Wraps a setup handler (what `handlerFactory` does with the one Probot makes). */
  guard(inner: Handler): Handler;
  /**
   * Call once the server listens: takes the code, the `state` and the proof cookies out of every
   * request before Probot's request logger serializes it (so they are never logged), then logs
   * the one line with the URL to open. Returns that URL.
   */
  listen(httpServer: HttpServer, log: Logger, host: string): string;
}

interface Proof {
  codes: string[];
  states: string[];
  cookies: string[];
  returnCookies: string[];
}

const token = () => randomBytes(32).toString("hex"); // url-safe, and no shape the log redactor mistakes for a key
const digest = (value: string) => createHash("sha256").update(value).digest();
/** Constant-time: both sides are hashed to the same length first. */
const matches = (candidates: string[], secret: string) => {
  const expected = digest(secret);
  let found = false;
  for (const candidate of candidates) found = timingSafeEqual(digest(candidate), expected) || found;
  return found;
};

/**
 * Probot's setup (GitHub App registration) routes — `/`, `/probot` and `/probot/*` — answer only
 * the operator: a request proves it with the one-time setup code printed in the start-up log, or
 * with the HttpOnly cookie set when the code was presented. State-changing requests (POST
 * `/probot/import`, which writes `.env`) need the cookie and an Origin naming this host.
 */
export function guardSetupRoutes<A, O>(
  factory: HandlerFactory<A, O>,
  options: SetupRouteGuardOptions = {},
): SetupRouteGuard & {
  /** Probot's setup handler factory, wrapped: for `server.loadHandlerFactory`. */ handlerFactory: HandlerFactory<A, O>;
} {
  const secrets: SetupSecrets = { code: options.code ?? token(), cookie: token(), return: token(), state: token() };
  const registered = options.registered ?? (() => Boolean(process.env.APP_ID?.trim()));
  const proofs = new WeakMap<IncomingMessage, Proof>();

  /** Removes the proofs from the request (URL, Cookie, Referer) and keeps them aside; idempotent. */
  function takeProof(req: IncomingMessage): Proof {
    const known = proofs.get(req);
    if (known) return known;
    const proof: Proof = { codes: [], states: [], cookies: [], returnCookies: [] };
    proofs.set(req, proof);
    readProof(req, proof);
    return proof;
  }

  function guard(inner: Handler): Handler {
    return async (req, res) => {
      const proof = takeProof(req);
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      if (path !== "/" && path !== "/probot" && !path.startsWith("/probot/")) return false; // Probot's setup serves nothing else
      if (registered() && path !== "/probot/success") {
        refuse(res, 404, "The GitHub App is registered (APP_ID is set). Restart no-mistakes to run it.\n");
        return true;
      }
      const hasCode = matches(proof.codes, secrets.code);
      if (answeredBeforeSetup(req, res, path, proof, secrets, hasCode)) return true;
      res.setHeader("cache-control", "no-store");
      res.setHeader("referrer-policy", "strict-origin"); // the page's URL (with the code) never leaves as a Referer
      res.setHeader("x-frame-options", "DENY");
      if (hasCode) setProofCookies(req, res, secrets.cookie, secrets.return);
      if (req.method === "GET" && path === "/probot") addStateToManifestForm(res, secrets.state);
      return inner(req, res);
    };
  }

  return {
    handlerFactory: async (app, factoryOptions) => guard(await factory(app, factoryOptions)),
    guard,
    listen(httpServer, log, host) {
      // Before Probot's listener, whose request logger serializes URL and headers on arrival.
      httpServer.prependListener("request", (req: IncomingMessage) => void takeProof(req));
      const address = httpServer.address();
      const port = typeof address === "object" && address ? address.port : 0;
      const url = `http://${printableHost(host)}:${port}/probot?${SETUP_CODE_PARAM}=${secrets.code}`;
      log.info(
        `setup: open ${url} in your browser to register the GitHub App (the setup pages answer only with this one-time code)`,
      );
      return url;
    },
  };
}

/** One guard's secrets: the code printed in the log, the two proof cookies' values and the manifest's `state`. */
interface SetupSecrets {
  code: string;
  cookie: string;
  return: string;
  state: string;
}

/** Moves the code and `state` out of the URL and the proof cookies out of the Cookie header into `proof`. */
function readProof(req: IncomingMessage, proof: Proof): void {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  if (q >= 0) {
    const path = url.slice(0, q);
    const params = new URLSearchParams(url.slice(q + 1));
    const names = path === MANIFEST_CALLBACK ? [SETUP_CODE_PARAM, STATE_PARAM] : [SETUP_CODE_PARAM];
    if (names.some((name) => params.has(name))) {
      proof.codes = params.getAll(SETUP_CODE_PARAM);
      if (path === MANIFEST_CALLBACK) proof.states = params.getAll(STATE_PARAM);
      for (const name of names) params.delete(name);
      const rest = params.toString();
      req.url = rest ? `${path}?${rest}` : path;
    }
  }
  const cookie = req.headers.cookie;
  if (cookie) {
    const kept: string[] = [];
    for (const part of cookie.split(";")) {
      const eq = part.indexOf("=");
      const name = (eq < 0 ? part : part.slice(0, eq)).trim();
      const value = eq < 0 ? "" : part.slice(eq + 1).trim();
      if (name === SETUP_COOKIE) proof.cookies.push(value);
      else if (name === SETUP_RETURN_COOKIE) proof.returnCookies.push(value);
      else if (part.trim()) kept.push(part.trim());
    }
    if (kept.length > 0) req.headers.cookie = kept.join("; ");
    else delete req.headers.cookie;
  }
  const referer = req.headers.referer;
  if (referer?.includes(SETUP_CODE_PARAM)) req.headers.referer = withoutParam(referer, SETUP_CODE_PARAM);
}

/**
 * Whether the request was answered here, before the setup handler: the root's redirect to the setup page
 * (which asks for the code when the browser has no proof yet), or a refusal for want of proof — a change
 * needs the cookie and this origin, a page the code or the cookie, GitHub's redirect back the `state` too.
 */
function answeredBeforeSetup(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  proof: Proof,
  secrets: SetupSecrets,
  hasCode: boolean,
): boolean {
  const hasCookie = matches(proof.cookies, secrets.cookie);
  if (path === "/" && (req.method === "GET" || req.method === "HEAD")) {
    res.setHeader("cache-control", "no-store");
    if (hasCode) setProofCookies(req, res, secrets.cookie, secrets.return);
    res
      .writeHead(302, { "content-type": "text/plain; charset=utf-8", location: "/probot" })
      .end("Found. Redirecting to /probot\n");
    return true;
  }
  if (req.method !== "GET" && req.method !== "HEAD") {
    if (!hasCookie) {
      refuse(res, 403, `${NO_PROOF}\n`);
      return true;
    }
    if (!isSameOrigin(req)) {
      refuse(
        res,
        403,
        `Cross-origin request refused: the setup pages accept changes only from themselves. ${OPEN_URL}\n`,
      );
      return true;
    }
    return false;
  }
  const returning =
    path === MANIFEST_CALLBACK &&
    (hasCookie || matches(proof.returnCookies, secrets.return)) &&
    matches(proof.states, secrets.state);
  if (!hasCode && (path === MANIFEST_CALLBACK ? !returning : !hasCookie)) {
    refuse(res, 403, `${NO_PROOF}\n`);
    return true;
  }
  return false;
}

const OPEN_URL = "Open the URL printed in the no-mistakes start-up log (…/probot?setup_code=…) in your browser.";
const NO_PROOF = `Forbidden: the no-mistakes setup pages need the one-time setup code. ${OPEN_URL}`;

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" }).end(message);
}

/** Origin must be present and name this host (Host header); a Referer, when sent, too. */
function isSameOrigin(req: IncomingMessage): boolean {
  const host = req.headers.host;
  const origin = req.headers.origin;
  if (!host || !origin || !sameHost(origin, host)) return false;
  const referer = req.headers.referer;
  return referer === undefined || sameHost(referer, host);
}

function sameHost(url: string, host: string): boolean {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return false;
    return new URL(`${parsed.protocol}//${host}`).host === parsed.host; // normalizes case and default ports
  } catch {
    return false;
  }
}

function setProofCookies(req: IncomingMessage, res: ServerResponse, cookieToken: string, returnToken: string): void {
  const forwardedProto = String(req.headers["x-forwarded-proto"] ?? "")
    .split(",")[0]
    ?.trim();
  const secure =
    (req.socket as { encrypted?: boolean }).encrypted === true || forwardedProto === "https" ? "; Secure" : "";
  res.setHeader("set-cookie", [
    `${SETUP_COOKIE}=${cookieToken}; Path=/; HttpOnly; SameSite=Strict${secure}`,
    `${SETUP_RETURN_COOKIE}=${returnToken}; Path=${MANIFEST_CALLBACK}; HttpOnly; SameSite=Lax${secure}`,
  ]);
  // Probot's request logger prints `res.getHeaders()`; Node writes the headers from its own store.
  const getHeaders = res.getHeaders;
  res.getHeaders = function (this: ServerResponse) {
    const headers = getHeaders.call(this);
    delete headers["set-cookie"];
    return headers;
  };
}

/**
 * GitHub's manifest flow hands a `state` given on the form's URL back on the redirect to
 * `/probot/setup`; Probot's page has none, so it is added to the form's action here.
 */
function addStateToManifestForm(res: ServerResponse, state: string): void {
  const end = res.end;
  res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    const body =
      typeof chunk === "string"
        ? chunk.replace(
            /(<form action=")([^"]*)(")/,
            (_m, open: string, action: string, close: string) =>
              `${open}${action}${action.includes("?") ? "&amp;" : "?"}${STATE_PARAM}=${state}${close}`,
          )
        : chunk;
    return (end as (...args: unknown[]) => ServerResponse).call(this, body, ...rest);
  } as typeof res.end;
}

function withoutParam(url: string, name: string): string {
  try {
    const parsed = new URL(url);
    parsed.searchParams.delete(name);
    return parsed.href;
  } catch {
    return url.replace(new RegExp(`${name}=[^&#]*`, "g"), "");
  }
}
