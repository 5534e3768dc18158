import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * smee.io's side of a webhook proxy, on 127.0.0.1: HEAD /new answers a redirect to a new channel (as
 * smee.io does), and GET /<channel> is an EventSource stream whose messages are a delivery's headers
 * and `body`, the JSON smee.io sends for each delivery GitHub posts to the channel.
 */
export async function startSmeeStandIn() {
  const streams = new Map<string, ServerResponse[]>();
  let connected: () => void = () => {};
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    if (path === "/new") {
      res.writeHead(307, { location: `${origin}/channel-${Math.random().toString(36).slice(2, 10)}` }).end();
      return;
    }
    if (req.method === "GET" && req.headers.accept?.includes("text/event-stream")) {
      res.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
        connection: "keep-alive",
      });
      res.write(`event: ready\ndata: {}\n\n`);
      streams.set(path, [...(streams.get(path) ?? []), res]);
      req.on("close", () =>
        streams.set(
          path,
          (streams.get(path) ?? []).filter((s) => s !== res),
        ),
      );
      connected();
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    newChannelUrl: `${origin}/new`,
    /** Resolves once a client listens on `channel` (a path such as /channel-abc). */
    async listening(channel: string, timeoutMs = 10_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!(streams.get(channel)?.length ?? 0)) {
        if (Date.now() > deadline) throw new Error(`no client listens on ${channel}`);
        await new Promise<void>((r) => {
          connected = r;
          setTimeout(r, 50);
        });
      }
    },
    /** Sends a delivery to every client of `channel`, as smee.io relays what GitHub posted. */
    deliver(channel: string, headers: Record<string, string>, body: unknown): number {
      const clients = streams.get(channel) ?? [];
      const message = JSON.stringify({ ...headers, body, query: {}, timestamp: Date.now() });
      for (const res of clients) res.write(`id: ${Date.now()}\ndata: ${message}\n\n`);
      return clients.length;
    },
    async close(): Promise<void> {
      for (const res of [...streams.values()].flat()) res.end();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
