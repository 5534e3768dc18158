/** Where a sign-in lands when `next` is missing or is not a path on this site. */
export const DEFAULT_NEXT = "/repos";

const BASE = "http://same-site.invalid";

/**
 * `next` as the Location to send ("/runs/12?tab=findings") when it is a path on this site, else DEFAULT_NEXT.
 * Anything a browser could read as another site is refused: "//evil.com" and "/\evil.com" (protocol-relative),
 * a scheme, control characters, or a path that resolves to another origin. The rule is applied to the
 * text returned, after the URL parser has resolved it: dot segments ("/.//evil.com", "/%2e//evil.com")
 * resolve to "//evil.com", so passing on the raw text proves nothing.
 */
export function safeNextPath(next: string | null | undefined): string {
  if (typeof next !== "string" || next.length > 2048 || !isSitePath(next)) return DEFAULT_NEXT;
  const url = new URL(next, BASE);
  const location = `${url.pathname}${url.search}${url.hash}`;
  return isSitePath(location) && resolvesTo(location) === location ? location : DEFAULT_NEXT;
}

/** Starts with one "/" and nothing a browser reads otherwise: "\" is "/" to it, controls and spaces are dropped or mangled. */
function isSitePath(path: string): boolean {
  if (!path.startsWith("/") || path.startsWith("//")) return false;
  if (/[\\\u0000-\u0020\u007f]/.test(path)) return false;
  return URL.canParse(path, BASE) && new URL(path, BASE).origin === BASE;
}

function resolvesTo(path: string): string {
  const url = new URL(path, BASE);
  return `${url.pathname}${url.search}${url.hash}`;
}
