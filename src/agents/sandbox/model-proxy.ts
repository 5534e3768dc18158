import { request as httpRequest, createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";
import type { ModelRoute } from "./model-route.js";

/** Headers that belong to one hop, or that carry credentials the agent must not choose. */
const DROPPED_REQUEST_HEADERS = new Set([
  "host",
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "transfer-encoding",
  "upgrade",
  "te",
  "trailer",
  "authorization",
  "x-api-key",
  "api-key",
  "cookie",
]);
const DROPPED_RESPONSE_HEADERS = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "trailer",
  "set-cookie",
]);

export interface ModelProxy {
  /** The unix socket the proxy listens on. */
  readonly socketPath: string;
  /** Paths the agent asked for and was refused (for the log). */
  readonly refused: string[];
  close(): Promise<void>;
}

/**
 * An HTTP proxy on a unix socket that forwards an agent's model API calls to `route.upstream`,
 * replacing whatever credentials the agent sent with the real key. Requests outside `route.allow`
 * get a 404 in the API's own error shape; `HEAD /` (Claude Code's connectivity probe) is answered
 * here. Bodies stream both ways (server-sent events pass through as they arrive).
 */
export async function startModelProxy(socketPath: string, route: ModelRoute): Promise<ModelProxy> {
  const upstream = new URL(route.upstream.replace(/\/+$/, ""));
  const send = upstream.protocol === "https:" ? httpsRequest : httpRequest;
  const refused: string[] = [];
  const sockets = new Set<import("node:net").Socket>();

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? "/";
    const path = url.split("?")[0] ?? "/";
    if ((req.method === "HEAD" || req.method === "GET") && path === "/") {
      res.writeHead(200).end();
      return;
    }
    if (!route.allow.some((pattern) => pattern.test(path))) {
      refused.push(`${req.method ?? "?"} ${path}`.slice(0, 200));
      req.resume();
      const message = `no-mistakes sandbox: ${req.method} ${path} is not a model API call the agent may make`;
      res
        .writeHead(404, { "content-type": "application/json" })
        .end(JSON.stringify({ type: "error", error: { type: "not_found_error", message } }));
      return;
    }
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && !DROPPED_REQUEST_HEADERS.has(name.toLowerCase())) headers[name] = value;
    }
    if (route.auth) headers[route.auth.header] = route.auth.value;
    const outgoing = send(
      {
        protocol: upstream.protocol,
        hostname: upstream.hostname,
        port: upstream.port || undefined,
        method: req.method,
        path: `${upstream.pathname === "/" ? "" : upstream.pathname}${url}`,
        headers,
      },
      (incoming) => {
        const out: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(incoming.headers)) {
          if (value !== undefined && !DROPPED_RESPONSE_HEADERS.has(name.toLowerCase())) out[name] = value;
        }
        res.writeHead(incoming.statusCode ?? 502, out);
        incoming.pipe(res);
        incoming.on("error", () => res.destroy());
      },
    );
    outgoing.on("error", (error) => {
      // The CLI sees what it would see from an unreachable API: a connection-level failure.
      if (!res.headersSent) {
        res.writeHead(502, { "content-type": "application/json" }).end(
          JSON.stringify({
            type: "error",
            error: {
              type: "api_error",
              message: `model API unreachable (${(error as NodeJS.ErrnoException).code ?? "error"})`,
            },
          }),
        );
      } else {
        res.destroy();
      }
    });
    req.pipe(outgoing);
    res.on("close", () => outgoing.destroy());
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => {
      server.off("error", reject);
      resolve();
    });
  });

  return {
    socketPath,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
