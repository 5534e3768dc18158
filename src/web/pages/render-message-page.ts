import { html } from "./html.js";
import type { HtmlSafe } from "./html-safe.js";
import { layout } from "./layout.js";
import { safeUrl } from "./safe-url.js";
import { untrustedText } from "./untrusted-text.js";

/** The small pages: sign in first, not found (the same whether it does not exist or is not yours to see), a bad request, sign-in not set up. */
export type MessagePage =
  | { kind: "sign-in"; /** The path to come back to after signing in. */ next: string }
  | { kind: "not-found" }
  | { kind: "bad-request"; message: string }
  | { kind: "sign-in-not-configured" };

export function renderMessagePage(page: MessagePage, ctx: { user?: { login: string }; operator: boolean }): string {
  const { title, body } = content(page);
  return layout({ title, user: ctx.user, operator: ctx.operator, body: html`<div class="message">${body}</div>` });
}

function content(page: MessagePage): { title: string; body: HtmlSafe } {
  switch (page.kind) {
    case "sign-in": {
      const next = localPath(page.next);
      const to = next === undefined ? "/login" : `/login?${new URLSearchParams({ next }).toString()}`;
      return {
        title: "Sign in",
        body: html`<h1>Sign in</h1>
          <p>This page shows what the bot did in repositories you can read on GitHub. Sign in to see it.</p>
          <p><a class="button" href="${safeUrl(to)}">Sign in with GitHub</a></p>`,
      };
    }
    case "not-found":
      return {
        title: "Not found",
        body: html`<h1>Not found</h1>
          <p>There is no such page, or you cannot read it.</p>`,
      };
    case "bad-request":
      return {
        title: "Bad request",
        body: html`<h1>Bad request</h1>
          <p>${untrustedText(page.message)}</p>`,
      };
    case "sign-in-not-configured":
      return {
        title: "Sign-in not configured",
        body: html`<h1>Sign-in not configured</h1>
          <p>
            The run view needs GitHub sign-in. Set <code>GITHUB_CLIENT_ID</code> and
            <code>GITHUB_CLIENT_SECRET</code> (the GitHub App's OAuth client) and restart the app.
          </p>`,
      };
  }
}

/** A path on this site to return to (`/…`, not `//host`); anything else is dropped. */
function localPath(next: string): string | undefined {
  return next.startsWith("/") && !next.startsWith("//") && safeUrl(next) ? next : undefined;
}
