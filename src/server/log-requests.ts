import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { redactHeaders } from "../logging/redact-headers.js";
import { redactUrl } from "../logging/redact-url.js";

/** Probes and scrapes, asked every few seconds by a load balancer or Prometheus: logged at debug. */
const PROBES = new Set(["/health", "/healthz", "/ready", "/readyz", "/metrics", "/ping"]);

/**
 * One line per answered request: method, path, status and time at info (probes at debug, 5xx at warn),
 * the request headers only at debug. Nothing that signs someone in is written: the values of credential
 * query parameters (OAuth's `code` and `state`, anything token-like: redactUrl) and of the cookie and
 * authorization headers (the run view's `nm_session`: redactHeaders) are replaced by `[redacted]`.
 * Listens after the setup guard has taken its one-time code out of the URL; the logger's redaction
 * covers whatever else a line carries (token shapes, the app's secrets).
 */
export function logRequests(server: Server, log: Logger): () => void {
  const http = log.child({ name: "http" });
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const started = process.hrtime.bigint();
    const method = req.method;
    const url = req.url ?? "";
    const path = url.split("?")[0]!;
    const delivery = req.headers["x-github-delivery"];
    res.once("finish", () => {
      const status = res.statusCode;
      const level = status >= 500 ? "warn" : PROBES.has(path) ? "debug" : "info";
      if (!http.isLevelEnabled(level)) return;
      const ms = Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100;
      const logged = redactUrl(url);
      const fields = {
        method,
        url: logged,
        status,
        ms,
        ...(typeof delivery === "string" ? { deliveryId: delivery } : {}),
        ...(http.isLevelEnabled("debug") ? { headers: redactHeaders(req.headers) } : {}),
      };
      http[level](fields, `${method} ${logged} ${status} ${ms}ms`);
    });
  };
  server.on("request", onRequest);
  return () => void server.off("request", onRequest);
}
