// The module object, not its named exports: nock patches `http.request` on it, and a named import taken
// before nock loaded (a test importing node:http first) would keep the unpatched function.
import http, { createServer, type IncomingHttpHeaders } from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";

export interface GitHubHttpRelay {
  /** What an app process is started with: GHE_HOST (GHE_PROTOCOL=http), so its API root is http://<host>/api/v3. */
  host: string;
  port: number;
  /** Requests that got no answer from the target (nock had no interceptor, or refused the connection). */
  failures: string[];
  close(): Promise<void>;
}

/** Per-connection headers that belong to one hop, never forwarded. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "proxy-connection",
  "te",
  "trailer",
]);

function forwardable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !HOP_BY_HOP.has(name)) kept[name] = value;
  return kept;
}

/**
 * A real HTTP server on 127.0.0.1 that forwards every request (method, path, headers, body) with
 * node:http to `targetOrigin` (e.g. http://github.relay.test) and streams the answer back. App processes
 * cannot be intercepted by nock; their GitHub requests come here and are forwarded from this (the test)
 * process, where the GitHub stand-in's nock interceptors answer them. The target must be a host only nock
 * answers, so nothing loops back to the relay.
 */
export async function startGitHubHttpRelay(targetOrigin: string): Promise<GitHubHttpRelay> {
  const target = new URL(targetOrigin);
  const failures: string[] = [];
  const server = createServer((req, res) => {
    const body: Buffer[] = [];
    req.on("data", (chunk: Buffer) => body.push(chunk));
    req.on("end", () => {
      const payload = Buffer.concat(body);
      const headers = { ...forwardable(req.headers), host: target.host, "content-length": String(payload.length) };
      // An https target (github.com's web host, as a browser opens it) is answered by nock like an http one.
      const client = target.protocol === "https:" ? https : http;
      const upstream = client.request(new URL(req.url ?? "/", target), { method: req.method, headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, forwardable(answer.headers));
        answer.pipe(res);
      });
      upstream.on("error", (error) => {
        failures.push(`${req.method} ${req.url}: ${error.message}`);
        if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" });
        res.end(JSON.stringify({ message: `relay: ${error.message}` }));
      });
      upstream.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    port,
    failures,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
