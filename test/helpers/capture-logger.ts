import { Writable } from "node:stream";
import type { Logger } from "pino";
import { createLogger } from "../../src/logging/create-logger.js";

/** A real app logger whose output is kept in memory: `lines()` parses what was logged. */
export function captureLogger(
  secrets: string[] = [],
  level = "debug",
): { log: Logger; text: () => string; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const log = createLogger({ level, secrets, destination });
  const text = () => chunks.join("");
  return {
    log,
    text,
    lines: () =>
      text()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}
