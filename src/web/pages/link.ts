import { html } from "./html.js";
import type { HtmlSafe } from "./html-safe.js";
import { safeUrl } from "./safe-url.js";

/** `<a href>` around the label when the address is one a page may link to; the label alone otherwise. */
export function link(url: string | null | undefined, label: unknown, rel?: "external"): HtmlSafe {
  const href = url ? safeUrl(url) : undefined;
  if (!href) return html`${label}`;
  return rel ? html`<a href="${href}" rel="noopener noreferrer">${label}</a>` : html`<a href="${href}">${label}</a>`;
}
