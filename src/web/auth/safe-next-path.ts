/** Where a sign-in lands when `next` is missing or is not a path on this site. */
export const DEFAULT_NEXT = "/repos";

/**
 * `next` when it is a path on this site ("/runs/12?tab=findings"), else DEFAULT_NEXT. Anything a browser
 * could read as another site is refused: "//evil.com" and "/\evil.com" (protocol-relative), a scheme,
 * control characters, or a path that resolves to another origin.
 */
export function safeNextPath(next: string | null | undefined): string {
  if (typeof next !== "string" || next.length === 0 || next.length > 2048) return DEFAULT_NEXT;
  if (!next.startsWith("/") || next.startsWith("//")) return DEFAULT_NEXT;
  // Browsers read "\" as "/" in a URL; control characters and spaces are dropped or mangled.
  if (/[\\\u0000-\u0020\u007f]/.test(next)) return DEFAULT_NEXT;
  const base = "http://same-site.invalid";
  let url: URL;
  try {
    url = new URL(next, base);
  } catch {
    return DEFAULT_NEXT;
  }
  if (url.origin !== base) return DEFAULT_NEXT;
  return `${url.pathname}${url.search}${url.hash}`;
}
