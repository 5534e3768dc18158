import { Agent, request } from "node:http";

export interface StreamedPost {
  status?: number;
  text: string;
  /** Body bytes handed to the socket before the exchange ended. */
  sentBytes: number;
  /** The connection was closed (the client keeps it alive, so: by the server). */
  closed: boolean;
}

/**
 * POSTs `totalBytes` to `url` as one `chunk` written again and again (nothing the size of the body is
 * allocated), chunked unless `headers` give a `content-length`; `totalBytes` 0 sends the headers and then
 * nothing. The client keeps its connection alive: the promise settles when the connection is closed, or
 * when the whole body was sent and answered.
 */
export function streamPost(
  url: string,
  headers: Record<string, string>,
  totalBytes: number,
  chunk: Buffer = Buffer.alloc(1024 * 1024, 0x20),
): Promise<StreamedPost> {
  const agent = new Agent({ keepAlive: true });
  const result: StreamedPost = { text: "", sentBytes: 0, closed: false };
  let bodyEnded = false;
  let settled = false;
  return new Promise((resolve) => {
    const settle = () => {
      if (settled) return;
      settled = true;
      agent.destroy();
      resolve({ ...result });
    };
    const req = request(url, { method: "POST", headers, agent });
    const write = () => {
      if (totalBytes === 0) return void req.flushHeaders(); // headers only: the body never comes
      while (result.sentBytes < totalBytes && !req.destroyed) {
        result.sentBytes += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", write);
      }
      if (!req.destroyed) req.end(() => (bodyEnded = true));
    };
    req.on("error", () => {}); // writing after the server closed: the answer, if any, is in `status`
    req.on("socket", (socket) => socket.once("close", () => ((result.closed = true), settle())));
    req.on("response", (res) => {
      result.status = res.statusCode;
      res.setEncoding("utf8").on("data", (d: string) => (result.text += d));
      res.on("end", () => bodyEnded && settle());
    });
    write();
  });
}
