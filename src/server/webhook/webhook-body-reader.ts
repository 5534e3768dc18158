import type { IncomingMessage } from "node:http";

/** Why a body was not read to its end. */
export type UnreadBody =
  /** Over the per-body cap: said by its `content-length` (then nothing was read), or counted as it arrived. */
  | { tooLarge: { contentLength: number } | { receivedBytes: number } }
  /** Within the cap, but the largest of the bodies arriving at once when together they passed their budget. */
  | { crowded: { receivedBytes: number } }
  /** The client went away first. */
  | { gone: true };

interface Reading {
  bytes: number;
  stop(unread: UnreadBody): void;
}

/**
 * Reads request bodies into memory within two caps: each body at most `maxBytes`, and all the bodies
 * being read at once together at most `maxBufferedBytes` — when a chunk passes that, the largest of them
 * is let go, so many large bodies arriving together cannot hold more than the budget (and a small one
 * is not the one dropped). A body let go stops being read at once, and what was read of it is dropped.
 */
export class WebhookBodyReader {
  private readonly readings = new Set<Reading>();
  private buffered = 0;

  constructor(private readonly limits: { maxBytes: number; maxBufferedBytes: number }) {}

  read(request: IncomingMessage): Promise<Buffer | UnreadBody> {
    const contentLength = Number(request.headers["content-length"]);
    if (contentLength > this.limits.maxBytes) return Promise.resolve({ tooLarge: { contentLength } });
    return new Promise((resolve) => {
      let chunks: Buffer[] = [];
      const settle = (result: Buffer | UnreadBody) => {
        request.off("data", onData).off("end", onEnd).off("error", onGone).off("close", onGone);
        if (!Buffer.isBuffer(result)) request.pause();
        this.readings.delete(reading);
        this.buffered -= reading.bytes;
        chunks = [];
        resolve(result);
      };
      const reading: Reading = { bytes: 0, stop: settle };
      const onData = (chunk: Buffer) => {
        reading.bytes += chunk.length;
        this.buffered += chunk.length;
        if (reading.bytes > this.limits.maxBytes) return settle({ tooLarge: { receivedBytes: reading.bytes } });
        chunks.push(chunk);
        while (this.buffered > this.limits.maxBufferedBytes) {
          const largest = this.largest();
          largest.stop({ crowded: { receivedBytes: largest.bytes } });
        }
      };
      const onEnd = () => settle(Buffer.concat(chunks, reading.bytes));
      const onGone = () => settle({ gone: true });
      this.readings.add(reading);
      request.on("data", onData).once("end", onEnd).once("error", onGone).once("close", onGone);
    });
  }

  private largest(): Reading {
    let largest: Reading | undefined;
    for (const reading of this.readings) if (!largest || reading.bytes > largest.bytes) largest = reading;
    return largest!;
  }
}
