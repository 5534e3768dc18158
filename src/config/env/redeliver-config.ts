import { z } from "zod";
import { ConfigError } from "../config-error.js";

export interface RedeliverConfig {
  /** How often failed webhook deliveries are looked for and redelivered; `null` = never (`0` or `off`). */
  intervalMs: number | null;
  /** REDELIVER_MAX_ATTEMPTS: attempts of one delivery (original and redeliveries, as GitHub lists them) before it is given up on. */
  maxAttempts: number;
}

/** REDELIVER_MAX_ATTEMPTS: a whole number from 2 (the original and one redelivery) to 50; unset: 5. */
export const redeliverMaxAttemptsSchema = z
  .string()
  .optional()
  .transform((raw, ctx): number => {
    const value = raw?.trim() ?? "";
    if (value === "") return 5;
    const n = /^\d+$/.test(value) ? Number(value) : NaN;
    if (!(n >= 2 && n <= 50)) {
      ctx.addIssue({ code: "custom", message: `"${raw}" is not a whole number from 2 to 50` });
      return z.NEVER;
    }
    return n;
  });

const DEFAULT_INTERVAL_MS = 5 * 60_000;

/**
 * REDELIVER_INTERVAL: a duration as AGENT_TIMEOUT takes it (seconds "300", or "90s", "5m", "1h"), or
 * `0` / `off` to turn the sweep off. Unset: every 5 minutes.
 */
export const redeliverIntervalSchema = z
  .string()
  .optional()
  .transform((raw, ctx): number | null => {
    const value = raw?.trim() ?? "";
    if (value === "") return DEFAULT_INTERVAL_MS;
    if (value.toLowerCase() === "off") return null;
    const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/.exec(value);
    if (!match) {
      ctx.addIssue({
        code: "custom",
        message: `"${raw}" is not a duration; write 300, 90s, 5m or 1h (0 or off turns the sweep off)`,
      });
      return z.NEVER;
    }
    const ms = Math.round(Number(match[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] ?? "s"]!);
    if (ms === 0) return null;
    if (ms < 10_000) {
      ctx.addIssue({
        code: "custom",
        message: `"${raw}" is too short; the sweep reads GitHub's delivery log, so 10s at the least (0 or off turns it off)`,
      });
      return z.NEVER;
    }
    return ms;
  });

/** Reads REDELIVER_INTERVAL and REDELIVER_MAX_ATTEMPTS; every problem is reported in one ConfigError, like readEnvConfig. */
export function readRedeliverConfig(env: NodeJS.ProcessEnv = process.env): RedeliverConfig {
  const interval = redeliverIntervalSchema.safeParse(env.REDELIVER_INTERVAL);
  const attempts = redeliverMaxAttemptsSchema.safeParse(env.REDELIVER_MAX_ATTEMPTS);
  const problems = [
    ...(interval.success ? [] : interval.error.issues.map((issue) => `REDELIVER_INTERVAL: ${issue.message}`)),
    ...(attempts.success ? [] : attempts.error.issues.map((issue) => `REDELIVER_MAX_ATTEMPTS: ${issue.message}`)),
  ];
  if (!interval.success || !attempts.success) throw new ConfigError("The environment", problems);
  return { intervalMs: interval.data, maxAttempts: attempts.data };
}
