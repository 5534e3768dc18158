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

/** The app's pino logger: object first, fixed message; secrets redacted by key and by value. */
export function createLogger(options: LoggerOptions): Logger {
  const redact = createSecretRedactor(options.secrets ?? []);
  const scrub = (value: unknown, depth = 0): unknown => {
    if (typeof value === "string") return redact(value);
    if (depth > 6 || value === null || typeof value !== "object") return value;
    if (value instanceof Error) {
      return { type: value.name, message: redact(value.message), stack: value.stack ? redact(value.stack) : undefined };
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
      hooks: {
        logMethod(args, method) {
          const cleaned = args.map((a) => (typeof a === "string" ? redact(a) : a)) as Parameters<typeof method>;
          return method.apply(this, cleaned);
        },
      },
    },
    options.destination ?? pino.destination(1),
  );
}
