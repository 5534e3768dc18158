import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

export interface MetricsListener {
  /** The port it listens on (the one chosen when asked for 0). */
  port: number;
  close(): Promise<void>;
}

/** A listener of its own for the metrics handler: GET /metrics, 404 for anything else. */
export async function serveMetrics(
  handler: Handler,
  options: { port: number; host: string; log: Logger },
): Promise<MetricsListener> {
  const server = createServer((req, res) => {
    handler(req, res)
      .then(
        (handled) => handled || res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found\n"),
      )
      .catch((error: unknown) => {
        options.log.error({ err: error }, "metrics request failed");
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
