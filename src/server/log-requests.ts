import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Logger } from "pino";

/** Probes and scrapes, asked every few seconds by a load balancer or Prometheus: logged at debug. */
const PROBES = new Set(["/health", "/healthz", "/ready", "/readyz", "/metrics", "/ping"]);

/**
 * One line per answered request: method, path, status and time at info (probes at debug, 5xx at warn),
 * the request headers only at debug. Listens after the setup guard has taken its one-time code out of
 * the URL; the logger's redaction covers whatever else a header carries.
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
      const fields = {
        method,
        url,
        status,
        ms,
        ...(typeof delivery === "string" ? { deliveryId: delivery } : {}),
        ...(http.isLevelEnabled("debug") ? { headers: req.headers } : {}),
      };
      http[level](fields, `${method} ${url} ${status} ${ms}ms`);
    });
  };
  server.on("request", onRequest);
  return () => void server.off("request", onRequest);
}
