import { z } from "zod";
import { ConfigError } from "./config-error.js";

export interface RedeliverConfig {
  /** How often failed webhook deliveries are looked for and redelivered; `null` = never (`0` or `off`). */
  intervalMs: number | null;
}

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

/** Reads REDELIVER_INTERVAL; every problem is reported in one ConfigError, like readEnvConfig. */
export function readRedeliverConfig(env: NodeJS.ProcessEnv = process.env): RedeliverConfig {
  const result = redeliverIntervalSchema.safeParse(env.REDELIVER_INTERVAL);
  if (!result.success)
    throw new ConfigError(
      "The environment",
      result.error.issues.map((issue) => `REDELIVER_INTERVAL: ${issue.message}`),
    );
  return { intervalMs: result.data };
}
