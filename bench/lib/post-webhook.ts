import { type Agent, request } from "node:http";
import { signature } from "./common.js";

/**
 * POSTs one signed GitHub delivery to /api/github/webhooks; resolves with the status (0: the request
 * failed, and `onError` hears why).
 */
export function postWebhook(
  port: number,
  agent: Agent,
  event: string,
  id: string,
  body: string,
  onError?: (error: NodeJS.ErrnoException) => void,
): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/api/github/webhooks",
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "user-agent": "GitHub-Hookshot/bench",
          "x-github-event": event,
          "x-github-delivery": id,
          "x-github-hook-id": "1",
          "x-hub-signature-256": signature(body),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => {
      onError?.(error);
      resolve(0);
    });
    req.end(body);
  });
}
