import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import { unlink } from "node:fs/promises";
import { egressAllowed, type EgressRule } from "../domain/egress-rule.js";

/** What a setup's network was: every host it was let through to, and every one it was refused. */
export interface EgressLog {
  allowed: string[];
  refused: string[];
}

export interface EgressProxy extends EgressLog {
  /** The unix socket the sandbox's egress bridge leads to. */
  socket: string;
  close(): Promise<void>;
}

/** At most this many distinct hosts are kept in each list (a setup that asks for thousands is cut short). */
const MAX_LOGGED = 100;

/**
 * An HTTP proxy on a unix socket for one sandboxed setup: `CONNECT host:port` (HTTPS) and plain
 * `GET http://host/...` go through only to hosts the rules allow, resolved here, on the app's side; anything
 * else is answered 403, kept in `refused` and told to `onRefused`. The sandbox has no other network.
 */
export async function startEgressProxy(
  socket: string,
  rules: readonly EgressRule[],
  /** Told of every connection refused (the log keeps each host once; this counts them all). */
  onRefused?: () => void,
): Promise<EgressProxy> {
  const log: EgressLog = { allowed: [], refused: [] };
  const note = (list: string[], what: string) => {
    if (list === log.refused) onRefused?.();
    if (!list.includes(what) && list.length < MAX_LOGGED) list.push(what);
  };
  const server = createServer((req, res) => forward(req, res, rules, log, note));
  const tunnels = new Set<Socket>();
  server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
    const [host, port] = splitAuthority(req.url ?? "", 443);
    if (!egressAllowed(rules, host, port)) {
      note(log.refused, `${host}:${port}`);
      client.end("HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n");
      return;
    }
    note(log.allowed, `${host}:${port}`);
    const upstream = connect(port, host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      tunnels.add(s);
      s.on("close", () => tunnels.delete(s));
      s.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
  });
  await unlink(socket).catch(() => undefined);
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  return {
    socket,
    get allowed() {
      return log.allowed;
    },
    get refused() {
      return log.refused;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of tunnels) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A plain-HTTP request through the proxy (`GET http://host:port/path`): forwarded when the host is allowed. */
function forward(
  req: IncomingMessage,
  res: ServerResponse,
  rules: readonly EgressRule[],
  log: EgressLog,
  note: (list: string[], what: string) => void,
): void {
  let url: URL;
  try {
    url = new URL(req.url ?? "");
  } catch {
    res.writeHead(400).end("no-mistakes egress: only absolute http:// URLs and CONNECT are proxied\n");
    return;
  }
  const port = Number(url.port || 80);
  if (url.protocol !== "http:" || !egressAllowed(rules, url.hostname, port)) {
    note(log.refused, `${url.hostname}:${port}`);
    res.writeHead(403).end(`no-mistakes egress: ${url.hostname} is not an allowed registry\n`);
    return;
  }
  note(log.allowed, `${url.hostname}:${port}`);
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !/^proxy-/i.test(name)));
  const upstream = httpRequest(
    { host: url.hostname, port, path: `${url.pathname}${url.search}`, method: req.method, headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on("error", () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  req.pipe(upstream);
}

/** `host:port` (and `[v6]:port`) of a CONNECT target. */
function splitAuthority(authority: string, defaultPort: number): [string, number] {
  const match = /^\[?([^\]]*?)\]?(?::(\d+))?$/.exec(authority);
  return [match?.[1] ?? "", Number(match?.[2] ?? defaultPort)];
}
