import { z } from "zod";
import { ConfigError } from "../config-error.js";

/** How /metrics is exposed; with neither a token nor a port it is not served at all. */
export interface MetricsConfig {
  /** METRICS_TOKEN: /metrics on the main port, for `Authorization: Bearer <token>` only. */
  token?: string;
  /** METRICS_PORT / METRICS_HOST: a listener of its own serving /metrics without the token. */
  server?: { port: number; host: string };
}

/** Long enough that it cannot be guessed by trying. */
const MIN_TOKEN_LENGTH = 16;

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

const metricsSchema = z.object({
  METRICS_TOKEN: optionalString.refine(
    (v) => v === undefined || (v.length >= MIN_TOKEN_LENGTH && !/\s/.test(v)),
    `must be at least ${MIN_TOKEN_LENGTH} characters, without spaces (e.g. openssl rand -hex 32)`,
  ),
  METRICS_PORT: optionalString.refine(
    (v) => v === undefined || (/^\d+$/.test(v) && Number(v) <= 65535),
    "is not a port number (0-65535)",
  ),
  METRICS_HOST: optionalString,
});

/** Parses the METRICS_* variables; every problem is reported together. */
export function readMetricsConfig(env: NodeJS.ProcessEnv = process.env): MetricsConfig {
  const problems: string[] = [];
  const values: Record<string, string | undefined> = {};
  for (const [key, schema] of Object.entries(metricsSchema.shape)) {
    const result = schema.safeParse(env[key]);
    if (result.success) values[key] = result.data;
    else problems.push(...result.error.issues.map((issue) => `${key}: ${issue.message}`));
  }
  const { METRICS_TOKEN: token, METRICS_PORT: port, METRICS_HOST: host } = values;
  if (host !== undefined && port === undefined && !problems.some((p) => p.startsWith("METRICS_PORT"))) {
    problems.push("METRICS_HOST: only used with METRICS_PORT (set METRICS_PORT for a metrics listener of its own)");
  }
  if (port !== undefined && port !== "0" && Number(port) === Number(env.PORT?.trim() || "3000")) {
    problems.push(
      `METRICS_PORT: ${port} is the app's own port (PORT); choose another, or use METRICS_TOKEN to serve /metrics there`,
    );
  }
  if (problems.length > 0) throw new ConfigError("The environment", problems);
  return {
    ...(token !== undefined ? { token } : {}),
    ...(port !== undefined ? { server: { port: Number(port), host: host ?? "127.0.0.1" } } : {}),
  };
}
