import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";

/** Whether the browser reached the app over https: a TLS socket, or a proxy's `x-forwarded-proto: https`. */
export function cameOverTls(req: IncomingMessage): boolean {
  if ((req.socket as TLSSocket).encrypted) return true;
  const forwarded = req.headers["x-forwarded-proto"];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim().toLowerCase();
  return first === "https";
}

/** The origin the browser used for this request (`https://host` behind TLS, else `http://host`). */
export function requestOrigin(req: IncomingMessage): string {
  return `${cameOverTls(req) ? "https" : "http"}://${req.headers.host ?? "localhost"}`;
}
