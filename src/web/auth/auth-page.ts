import type { ServerResponse } from "node:http";
import { html } from "../pages/html.js";
import { layout } from "../pages/layout.js";
import { untrustedText } from "../pages/untrusted-text.js";

/**
 * A page for the sign-in's own answers (not configured, refused, failed), in the run view's layout; every
 * text goes through the pages' untrusted-text rules. The run view's router has set the security headers.
 */
export function sendAuthPage(res: ServerResponse, status: number, title: string, paragraphs: string[]): void {
  const body = html`<h1>${untrustedText(title)}</h1>
    ${paragraphs.map((p) => html`<p>${untrustedText(p)}</p>`)}`;
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  });
  res.end(layout({ title, operator: false, body }));
}
