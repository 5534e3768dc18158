import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { listRefusals } from "../../../src/db/refusals.js";
import { Refusals } from "../../../src/refusals/refusals.js";
import { limitWebhookBody } from "../../../src/server/webhook/limit-webhook-body.js";
import { captureLogger } from "../../helpers/capture-logger.js";
import { createTestDatabase } from "../../helpers/test-database.js";

const KiB = 1024;
const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) await new Promise((r) => s.close(r));
});

/** limitWebhookBody with small caps, in front of a middleware that answers 200 with the length of the body it was handed. */
async function serve(limits: { maxBytes: number; maxBufferedBytes: number }, refusals?: Refusals) {
  const { log, lines } = captureLogger();
  const inner = async (req: IncomingMessage, res: ServerResponse) => {
    const body = (req as { body?: unknown }).body;
    res.writeHead(200).end(typeof body === "string" ? `${body.length} characters` : "not read");
    return true;
  };
  const middleware = limitWebhookBody(inner, { path: "/hooks", log, refusals, ...limits });
  const server = createServer((req, res) => void middleware(req, res));
  const connections: Socket[] = [];
  server.on("connection", (socket) => connections.push(socket));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, port, lines, connections };
}

/** A chunked POST whose body the test writes piece by piece. */
function openPost(url: string, id: string) {
  const req = request(`${url}/hooks`, { method: "POST", headers: { "x-github-delivery": id } });
  req.on("error", () => {});
  const answer = new Promise<{ status: number; text: string }>((resolve) =>
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (d: string) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode!, text }));
    }),
  );
  return {
    write: (bytes: number) => new Promise<void>((r) => req.write(Buffer.alloc(bytes, 0x20), () => r())),
    end: () => req.end(),
    answer,
  };
}

/** A raw POST that ignores the server's answer and end, and writes body bytes until its connection is dropped. */
function stubbornPost(port: number, framing: "Content-Length: 104857600" | "Transfer-Encoding: chunked") {
  return new Promise<{ statusLine: string }>((resolve) => {
    const socket = connect({ port, host: "127.0.0.1", allowHalfOpen: true });
    socket.write(`POST /hooks HTTP/1.1\r\nHost: 127.0.0.1\r\n${framing}\r\n\r\n`);
    const piece = Buffer.alloc(16 * KiB, 0x20);
    const frame = framing.startsWith("Transfer")
      ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")])
      : piece;
    let answer = "";
    socket.setEncoding("utf8").on("data", (d: string) => (answer += d));
    socket.on("error", () => {});
    const write = () => {
      while (!socket.destroyed && socket.write(frame));
      if (!socket.destroyed) socket.once("drain", write);
    };
    socket.on("close", () => resolve({ statusLine: answer.split("\r\n")[0]! }));
    write();
  });
}

describe("limitWebhookBody", () => {
  it("hands a body within the cap on as request.body (decoded), and leaves other paths and methods alone", async () => {
    const { url } = await serve({ maxBytes: 64 * KiB, maxBufferedBytes: 96 * KiB });
    const ok = await fetch(`${url}/hooks/`, { method: "POST", body: "é".repeat(100) });
    expect([ok.status, await ok.text()]).toEqual([200, "100 characters"]);
    const other = await fetch(`${url}/other`, { method: "POST", body: "x".repeat(128 * KiB) });
    expect([other.status, await other.text()]).toEqual([200, "not read"]);
    const get = await fetch(`${url}/hooks`);
    expect([get.status, await get.text()]).toEqual([200, "not read"]);
  });

  it("when bodies arriving together pass their budget, drops the largest (503) and lets the smaller one finish; the drop is kept as a refusal", async () => {
    const database = await createTestDatabase("pglite");
    const refusals = new Refusals({ db: database.handle.db, log: captureLogger().log });
    const { url, lines } = await serve({ maxBytes: 64 * KiB, maxBufferedBytes: 96 * KiB }, refusals);
    const large = openPost(url, "large");
    const small = openPost(url, "small");
    await large.write(60 * KiB);
    await sleep(100); // read by the server
    await small.write(30 * KiB);
    await sleep(100);
    await small.write(10 * KiB); // 100 KiB held together: over the 96 KiB budget
    expect(await large.answer).toEqual({
      status: 503,
      text: JSON.stringify({
        error: "Too many large webhook bodies arriving at once: this one was dropped; send it again",
      }),
    });
    small.end();
    expect(await small.answer).toEqual({ status: 200, text: `${40 * KiB} characters` });
    expect(lines().filter((l) => l.level === 40)).toEqual([
      expect.objectContaining({
        deliveryId: "large",
        receivedBytes: 60 * KiB,
        status: 503,
        msg: "webhook body dropped: too many large bodies arriving at once",
      }),
    ]);
    await refusals.stop();
    expect((await listRefusals(database.handle.db)).map((r) => [r.kind, r.reason, r.count])).toEqual([
      [
        "webhook_bodies_crowded",
        `webhook body dropped (503, delivery large) after ${60 * KiB} bytes: the bodies arriving together passed ${96 * KiB} bytes and it was the largest; GitHub redelivers a real one`,
        1,
      ],
    ]);
    await database.dispose();
  });

  it("lets go of a body whose client leaves, and keeps serving", async () => {
    const { url } = await serve({ maxBytes: 64 * KiB, maxBufferedBytes: 96 * KiB });
    const req = request(`${url}/hooks`, { method: "POST" });
    req.on("error", () => {});
    req.write(Buffer.alloc(50 * KiB));
    await sleep(50);
    req.destroy();
    await sleep(50);
    const ok = await fetch(`${url}/hooks`, { method: "POST", body: "x".repeat(60 * KiB) }); // 110 KiB with the one that left: its share was given back
    expect([ok.status, await ok.text()]).toEqual([200, `${60 * KiB} characters`]);
  });

  it("reads nothing more from a client that ignores the 413 and keeps writing, and drops its connection", async () => {
    const { port, connections } = await serve({ maxBytes: 64 * KiB, maxBufferedBytes: 96 * KiB });
    // the client never stops writing: had the server not dropped it, this would not end
    expect(await stubbornPost(port, "Content-Length: 104857600")).toEqual({
      statusLine: "HTTP/1.1 413 Payload Too Large",
    });
    expect(await stubbornPost(port, "Transfer-Encoding: chunked")).toEqual({
      statusLine: "HTTP/1.1 413 Payload Too Large",
    });
    const [declared, chunked] = connections;
    expect(declared!.bytesRead).toBeLessThan(256 * KiB); // its body was never read: what came in is the headers and what filled the paused stream
    expect(chunked!.bytesRead).toBeLessThan(64 * KiB + 256 * KiB); // read up to the cap, then no more
  });
});
