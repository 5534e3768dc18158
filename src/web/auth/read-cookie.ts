import type { IncomingMessage } from "node:http";

/** The value of cookie `name` on the request (the first one sent), or undefined. */
export function readCookie(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const pair of header.split(";")) {
    const at = pair.indexOf("=");
    if (at < 0) continue;
    if (pair.slice(0, at).trim() !== name) continue;
    const value = pair.slice(at + 1).trim();
    return value === "" ? undefined : value;
  }
  return undefined;
}
