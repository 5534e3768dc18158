import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Metrics } from "./metrics.js";

/**
 * GET /metrics: the Prometheus exposition text. With a `token`, only a request carrying
 * `Authorization: Bearer <token>` gets it (anything else: 401); `token: undefined` serves it to anyone
 * who can reach the listener — only for a listener of its own on a private interface (see startMetrics).
 * Returns false for every other request, so the server's next handler answers it.
 */
export function createMetricsHandler(metrics: Metrics, options: { token: string | undefined }) {
  const expected = options.token === undefined ? undefined : digest(options.token);
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    if (req.method !== "GET" || req.url?.split("?")[0] !== "/metrics") return false;
    if (expected && !matches(req.headers.authorization, expected)) {
      res
        .writeHead(401, {
          "content-type": "text/plain; charset=utf-8",
          "www-authenticate": 'Bearer realm="metrics"',
          "cache-control": "no-store",
        })
        .end("unauthorized\n");
      return true;
    }
    const text = await metrics.text();
    res.writeHead(200, { "content-type": metrics.contentType, "cache-control": "no-store" }).end(text);
    return true;
  };
}

/** Compares digests, so the time taken says nothing about how much of the token was right. */
function matches(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match !== null && timingSafeEqual(digest(match[1]!), expected);
}

function digest(token: string): Buffer {
  return createHash("sha256").update(token).digest();
}
