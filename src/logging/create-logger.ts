import pino, { type DestinationStream, type Logger } from "pino";
import pretty from "pino-pretty";
import { createSecretRedactor, REDACTED } from "./redact-secrets.js";

export interface LoggerOptions {
  level: string;
  /** Secret values to scrub from every string logged. */
  secrets?: readonly string[];
  /** Defaults to stdout; tests pass a stream to read what was logged. */
  destination?: DestinationStream;
  /** `json` (the default): one JSON object per line; `pretty`: one readable line per event (pino-pretty). */
  format?: "pretty" | "json";
  /** Pretty output in colour; defaults to whether stdout is a terminal (only when writing to stdout). */
  colorize?: boolean;
}

const REDACT_PATHS = [
  "privateKey",
  "*.privateKey",
  "secret",
  "*.secret",
  "webhookSecret",
  "*.webhookSecret",
  "token",
  "*.token",
  "password",
  "*.password",
  "headers.authorization",
  "*.headers.authorization",
  "req.headers.authorization",
  "request.headers.authorization",
  "*.request.headers.authorization",
  "headers.cookie",
  "*.headers.cookie",
  "req.headers.cookie",
  'headers["set-cookie"]',
  '*.headers["set-cookie"]',
  'res.headers["set-cookie"]',
  "env.GITHUB_TOKEN",
  "env.GH_TOKEN",
  "env.PRIVATE_KEY",
  "env.WEBHOOK_SECRET",
];

/**
 * The app's pino logger: object first, fixed message; secrets redacted by key (pino's paths) and by
 * value and token shape in the finished line — which covers what an object pass cannot see: the
 * message pino takes from an Error, child bindings, `%o`/`%j` arguments, objects nested deep.
 */
export function createLogger(options: LoggerOptions): Logger {
  const redact = createSecretRedactor(options.secrets ?? []);
  return pino(
    {
      level: options.level,
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      formatters: { log: (object) => serializeErrors(object) as Record<string, unknown> },
      // Errors are already serialized by `formatters.log`; pino's own `err` serializer would re-read
      // the plain object and report its type as "Object".
      serializers: { err: (value: unknown) => value },
      // Every finished line — message, fields, child bindings, %o arguments, serialized errors — is
      // scrubbed here, once, whatever its shape.
      hooks: { streamWrite: redact },
    },
    options.format === "pretty" ? prettyStream(options) : (options.destination ?? pino.destination(1)),
  );
}

/**
 * pino-pretty in this process, fed the finished JSON lines: the redaction above (`streamWrite`) has
 * already run on each line when it is parsed and printed, so a secret stays redacted in pretty output.
 */
function prettyStream(options: LoggerOptions): DestinationStream {
  return pretty({
    destination: options.destination ?? 1,
    sync: options.destination === undefined, // like pino.destination(1): nothing lost on process.exit
    colorize: options.colorize ?? (options.destination === undefined && process.stdout.isTTY === true),
    singleLine: true,
    translateTime: "SYS:HH:MM:ss.l",
    ignore: "pid,hostname",
  });
}

/**
 * Errors anywhere in a logged object (pino would print `{}` for one that is not under `err`) become
 * plain objects with type, message, stack, cause and their own fields. Objects without an Error are
 * returned as they are, uncopied.
 */
function serializeErrors(value: unknown, depth = 0): unknown {
  if (value instanceof Error) {
    const serialized = pino.stdSerializers.err(value) as Record<string, unknown>;
    return depth > 6 ? serialized : (serializeErrors(serialized, depth + 1) ?? serialized);
  }
  if (depth > 6 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const out = serializeErrors(item, depth + 1);
      if (out !== item) (copy ??= [...value])[i] = out;
    });
    return copy ?? value;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  let copy: Record<string, unknown> | undefined;
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    const out = serializeErrors(item, depth + 1);
    if (out !== item) (copy ??= { ...(value as Record<string, unknown>) })[key] = out;
  }
  return copy ?? value;
}
