import { html } from "./html.js";
import type { HtmlSafe } from "./html-safe.js";
import { safeUrl } from "./safe-url.js";
import { untrustedText } from "./untrusted-text.js";

export interface Breadcrumb {
  label: string;
  /** A path on this site; the current page's crumb has none. */
  href?: string;
}

export interface LayoutInput {
  title: string;
  user?: { login: string };
  operator: boolean;
  body: HtmlSafe;
  breadcrumbs?: Breadcrumb[];
}

/**
 * A whole page: the header (app name, breadcrumbs, who is signed in, a sign-out button that posts
 * without script, the operator page's link for operators) around the body. Its only stylesheet is
 * /assets/run-view.css; it has no script and no inline style.
 */
export function layout({ title, user, operator, body, breadcrumbs }: LayoutInput): string {
  const crumbs = breadcrumbs?.length
    ? html`<nav class="breadcrumbs" aria-label="Breadcrumbs">
        <ol>
          ${breadcrumbs.map((c, i) => {
            const href = c.href === undefined ? undefined : safeUrl(c.href);
            return i === breadcrumbs.length - 1 || !href
              ? html`<li>
                  <span aria-current="${i === breadcrumbs.length - 1 ? "page" : "false"}"
                    >${untrustedText(c.label)}</span
                  >
                </li>`
              : html`<li><a href="${href}">${untrustedText(c.label)}</a></li>`;
          })}
        </ol>
      </nav>`
    : undefined;
  const account = user
    ? html`<div class="account">
        ${operator && html`<a href="${safeUrl("/operator")}">Operator</a>`}<span class="login"
          >Signed in as <strong>${untrustedText(user.login)}</strong></span
        >
        <form method="post" action="${safeUrl("/logout")}"><button type="submit">Sign out</button></form>
      </div>`
    : undefined;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="same-origin" />
        <title>${untrustedText(title)} · no-mistakes</title>
        <link rel="stylesheet" href="${safeUrl("/assets/run-view.css")}" />
      </head>
      <body>
        <header class="site-header">
          <a class="app" href="${safeUrl("/repos")}">no-mistakes</a>${crumbs}${account}
        </header>
        <main>${body}</main>
      </body>
    </html> `.markup;
}
