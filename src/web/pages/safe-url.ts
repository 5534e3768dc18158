import { escapeHtml } from "./escape-html.js";
import { HtmlSafe } from "./html-safe.js";

/** Whitespace and control characters: browsers strip some inside a URL ("java\tscript:"), so none is allowed. */
const UNSAFE_CHARACTER = /[\u0000-\u0020\u007f-\u009f\u2028\u2029\\]/;
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/**
 * An address a page may link to: an absolute http(s) URL, or a path on this site (`/…`, `?…`, `#…`,
 * `a/b`); undefined for anything else — another scheme (`javascript:`, `data:`), a protocol-relative
 * `//host`, whitespace or control characters, a backslash.
 */
export function safeUrl(url: string): HtmlSafe | undefined {
  if (url === "" || UNSAFE_CHARACTER.test(url)) return undefined;
  const scheme = SCHEME.exec(url)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    if (scheme !== "http" && scheme !== "https") return undefined;
    if (!URL.canParse(url)) return undefined;
  } else if (url.startsWith("//")) {
    return undefined;
  }
  return new HtmlSafe(escapeHtml(url), "url");
}
