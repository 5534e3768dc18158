import type { IncomingMessage, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import type { Logger } from "pino";
import type { Database } from "../db/database.js";
import { GitHubError } from "../github/github-error.js";
import { createSecretRedactor } from "../logging/redact-secrets.js";
import type { WebAuth, WebUser } from "./auth/web-auth.js";
import { renderMessagePage } from "./pages/render-message-page.js";
import { renderOperatorPage } from "./pages/render-operator-page.js";
import { renderRepositoriesPage } from "./pages/render-repositories-page.js";
import { renderRepositoryPage } from "./pages/render-repository-page.js";
import { renderRunPage } from "./pages/render-run-page.js";
import { runViewCss } from "./pages/run-view-css.js";
import { findRepository } from "./queries/find-repository.js";
import { readOperatorView } from "./queries/read-operator-view.js";
import { readRepositoriesView } from "./queries/read-repositories-view.js";
import { readRepositoryView } from "./queries/read-repository-view.js";
import type { ScorecardScope } from "./queries/read-scorecard.js";
import { readRunView } from "./queries/read-run-view.js";
import { createScorecardCache } from "./queries/scorecard-cache.js";
import { parseRepositoryFilter } from "./parse-repository-filter.js";
import type { Scorecard } from "./views/scorecard-view.js";
import { webRoute, type WebRoute } from "./web-route.js";

const ANONYMOUS = { operator: false };

export interface WebHandlerDeps {
  db: Database;
  auth: WebAuth;
  /** GitHub's web origin (https://github.com, or the GHE host's), for links to PRs and comments. */
  webOrigin: string;
  log: Logger;
  /** The app's secret values (EnvConfig.secrets): redacted, with every token shape, from reasons the operator page shows. */
  secrets: readonly string[];
}

/**
 * Every page's security headers: nothing runs but what the app serves (no inline script or style), no
 * frame, no referrer to GitHub, nothing cached (pages show what a signed-in person may read).
 */
const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "same-origin",
  "cache-control": "no-store",
};

/**
 * The run view: sign-in (WebAuth's routes), then the pages, each shown only to someone signed in who can
 * read the repository through the App's installations. A repository, PR or page the person may not see
 * answers the same 404 as one that does not exist. Paths it does not know are left to the next handler.
 */
export function createWebHandler(deps: WebHandlerDeps) {
  const redact = createSecretRedactor(deps.secrets);
  const scorecard = createScorecardCache(deps.db);
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const route = webRoute(url.pathname);
    if (!route) return false;
    const send = sender(req, res, performance.now());
    // Set before anything answers, so sign-in's redirects and pages (written by WebAuth) carry them too.
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    try {
      await answerRoute(deps, route, { req, res, url, send }, (user, page) =>
        renderRoute(deps, page, user, url, redact, scorecard),
      );
    } catch (error) {
      // GitHub not answering the person's access check is GitHub's outage, not a broken page: say so.
      const github = error instanceof GitHubError;
      deps.log[github ? "warn" : "error"]({ err: error, path: url.pathname }, "run view page failed");
      const message = github
        ? "GitHub did not answer who may read this repository; try again in a minute."
        : "This page could not be shown; the app's log says why.";
      if (!res.headersSent) send(github ? 502 : 500, renderMessagePage({ kind: "bad-request", message }, ANONYMOUS));
      else res.end();
    }
    return true;
  };
}

type Send = (status: number, body: string, type?: string, extra?: Record<string, string>) => void;

/** Writes a whole answer: the security headers, its type and the time it took since `started` (server-timing). */
function sender(req: IncomingMessage, res: ServerResponse, started: number): Send {
  return (status, body, type = "text/html; charset=utf-8", extra = {}) => {
    res.writeHead(status, {
      ...SECURITY_HEADERS,
      "content-type": type,
      "server-timing": `app;dur=${(performance.now() - started).toFixed(1)}`,
      ...extra,
    });
    res.end(req.method === "HEAD" ? undefined : body);
  };
}

type PageRoute = Exclude<WebRoute, { kind: "asset" } | { kind: "auth" }>;

/**
 * What a route answers: the stylesheet, sign-in's routes, then for a page only GET (or HEAD) from someone
 * signed in (else to sign-in, and back here after), the page `render` gives or a 404.
 */
async function answerRoute(
  deps: WebHandlerDeps,
  route: WebRoute,
  { req, res, url, send }: { req: IncomingMessage; res: ServerResponse; url: URL; send: Send },
  render: (user: WebUser, route: PageRoute) => ReturnType<typeof renderRoute>,
): Promise<void> {
  if (route.kind === "asset")
    return send(200, runViewCss, "text/css; charset=utf-8", { "cache-control": "public, max-age=300" });
  if (route.kind === "auth") {
    if (!(await deps.auth.routes(req, res))) send(404, renderMessagePage({ kind: "not-found" }, ANONYMOUS));
    return;
  }
  if (req.method !== "GET" && req.method !== "HEAD") {
    const message = "Only GET is answered here.";
    return send(405, renderMessagePage({ kind: "bad-request", message }, ANONYMOUS), undefined, {
      allow: "GET, HEAD",
    });
  }
  if (!deps.auth.enabled) return send(503, renderMessagePage({ kind: "sign-in-not-configured" }, ANONYMOUS));
  const signIn = () => {
    const next = `${url.pathname}${url.search}`;
    res.writeHead(303, { ...SECURITY_HEADERS, location: `/login?next=${encodeURIComponent(next)}` }).end();
  };
  const user = await deps.auth.signedIn(req);
  if (!user) return signIn();
  const page = await render(user, route);
  if (page === SIGNED_OUT) return signIn(); // the session ended while this page was asked for
  if (page === undefined) send(404, renderMessagePage({ kind: "not-found" }, { user, operator: false }));
  else send(200, page);
}

/** What renderRoute answers when the person's session has ended (their token revoked): sign in again. */
const SIGNED_OUT = Symbol("signed out");

/** The page's HTML, undefined for a 404 (not there, or not readable by this person), or SIGNED_OUT. */
async function renderRoute(
  deps: WebHandlerDeps,
  route: PageRoute,
  user: WebUser,
  url: URL,
  redact: (text: string) => string,
  readScorecard: (scope: ScorecardScope) => Promise<Scorecard>,
): Promise<string | undefined | typeof SIGNED_OUT> {
  const operator = await deps.auth.isOperator(user);
  const context = { user, operator, github: { webOrigin: deps.webOrigin } };
  if (route.kind === "unknown") return undefined;
  if (route.kind === "operator") {
    if (!operator) return undefined;
    const [view, scorecard] = await Promise.all([readOperatorView(deps.db), readScorecard("all")]);
    return renderOperatorPage(view, context, redact, scorecard);
  }
  const readable = await deps.auth.readableRepositories(user);
  if (!readable) return SIGNED_OUT;
  if (route.kind === "repositories")
    return renderRepositoriesPage(await readRepositoriesView(deps.db, [...readable]), context);
  const repository = await findRepository(deps.db, route.fullName);
  if (!repository || !readable.has(repository.repositoryId)) return undefined;
  if (route.kind === "repository") {
    const filter = parseRepositoryFilter(url.searchParams);
    const [view, scorecard] = await Promise.all([
      readRepositoryView(deps.db, repository.repositoryId, filter),
      readScorecard({ repositoryIds: [repository.repositoryId] }),
    ]);
    return renderRepositoryPage(view, context, scorecard);
  }
  const view = await readRunView(deps.db, repository.repositoryId, route.prNumber);
  return view && renderRunPage(view, context);
}
