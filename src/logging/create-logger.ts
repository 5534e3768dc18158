import pino, { type DestinationStream, type Logger } from "pino";
import { createSecretRedactor, REDACTED } from "./redact-secrets.js";

export interface LoggerOptions {
  level: string;
  /** Secret values to scrub from every string logged. */
  secrets?: readonly string[];
  /** Defaults to stdout; tests pass a stream to read what was logged. */
  destination?: DestinationStream;
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
  "env.GITHUB_TOKEN",
  "env.GH_TOKEN",
  "env.PRIVATE_KEY",
  "env.WEBHOOK_SECRET",
];

/**
 * The app's pino logger: object first, fixed message; secrets redacted by key and by value.
 * Values are scrubbed in the logged object and, as a last net, in the finished line, which also
 * covers what the object pass cannot see: the message pino takes from an Error, child bindings,
 * `%o`/`%j` arguments and objects nested too deep to walk.
 */
export function createLogger(options: LoggerOptions): Logger {
  const redact = createSecretRedactor(options.secrets ?? []);
  const scrub = (value: unknown, depth = 0): unknown => {
    if (typeof value === "string") return redact(value);
    if (depth > 6 || value === null || typeof value !== "object") return value;
    if (value instanceof Error) {
      const { type, message, stack, ...rest } = pino.stdSerializers.err(value) as Record<string, unknown>;
      return { type, message: scrub(message), stack: scrub(stack), ...(scrub(rest, depth + 1) as object) };
    }
    if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = scrub(v, depth + 1);
    return out;
  };
  return pino(
    {
      level: options.level,
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      formatters: { log: (object) => scrub(object) as Record<string, unknown> },
      // Errors are already serialized (and scrubbed) by `formatters.log`; pino's own `err`
      // serializer would re-read the plain object and report its type as "Object".
      serializers: { err: (value: unknown) => value },
      hooks: {
        logMethod(args, method) {
          const cleaned = args.map((a) => (typeof a === "string" ? redact(a) : a)) as Parameters<typeof method>;
          return method.apply(this, cleaned);
        },
        streamWrite: redact,
      },
    },
    options.destination ?? pino.destination(1),
  );
}
