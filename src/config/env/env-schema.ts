import { z } from "zod";
import { DEFAULT_REGISTRIES, parseEgressRule, type EgressRule } from "../../domain/egress-rule.js";
import { DEFAULT_CACHE_TTL_MS, DEFAULT_SESSION_BUDGET_TOKENS } from "./agent-defaults.js";
import { AGENT_NAMES as AGENTS } from "./agent-roles.js";
import { DEFAULT_TURN_LIMITS } from "./turn-limits.js";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export const LOG_FORMATS = ["auto", "pretty", "json"] as const;

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v));

/** Accepts seconds ("900"), or a number with a unit ("90s", "15m", "1h"); returns milliseconds. */
const duration = (fallbackMs: number) =>
  optionalString.transform((value, ctx) => {
    if (value === undefined) return fallbackMs;
    const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/.exec(value.trim());
    if (!match) {
      ctx.addIssue({ code: "custom", message: `"${value}" is not a duration; write 900, 90s, 15m or 1h` });
      return z.NEVER;
    }
    const factor = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] ?? "s"]!;
    return Math.round(Number(match[1]) * factor);
  });

/** A TCP port; 0 asks the system for a free one (the one chosen is logged at start). */
const port = (fallback: number) =>
  optionalString.transform((value, ctx) => {
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0 || n > 65535) {
      ctx.addIssue({ code: "custom", message: `"${value}" is not a port number (0-65535)` });
      return z.NEVER;
    }
    return n;
  });

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.host !== "";
  } catch {
    return false;
  }
}

const positiveInt = (fallback: number) =>
  optionalString.transform((value, ctx) => {
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) {
      ctx.addIssue({ code: "custom", message: `"${value}" is not a positive whole number` });
      return z.NEVER;
    }
    return n;
  });

/** Every variable the app reads, each parsed on its own (with its default) so one bad value hides no other. */
export const envSchema = z.object({
  APP_ID: optionalString.refine((v) => v === undefined || /^\d+$/.test(v), "must be the numeric App ID"),
  PRIVATE_KEY: optionalString,
  PRIVATE_KEY_PATH: optionalString,
  WEBHOOK_SECRET: optionalString,
  WEBHOOK_PATH: optionalString.transform((v) => v ?? "/api/github/webhooks"),
  WEBHOOK_PROXY_URL: optionalString.refine(
    (v) => v === undefined || isHttpUrl(v),
    "must be an http(s) URL, e.g. a smee.io channel (https://smee.io/new makes one)",
  ),
  PUBLIC_URL: optionalString
    .refine(
      (v) => v === undefined || isHttpUrl(v),
      "must be the http(s) URL where GitHub reaches this app, e.g. https://no-mistakes.example.com",
    )
    .transform((v) => v?.replace(/\/+$/, "")),
  PORT: port(3000),
  HOST: optionalString.transform((v) => v ?? "localhost"),
  DATABASE_URL: optionalString.refine(
    (v) => v === undefined || /^postgres(ql)?:\/\//.test(v),
    "must start with postgres:// or postgresql:// (leave it unset to use the embedded database)",
  ),
  DATA_DIR: optionalString.transform((v) => v ?? "./.data"),
  EMBEDDED_DB_BUFFERS_MB: positiveInt(8),
  LOG_LEVEL: optionalString.pipe(z.enum(LOG_LEVELS).optional()).transform((v) => v ?? "info"),
  LOG_FORMAT: optionalString.pipe(z.enum(LOG_FORMATS).optional()).transform((v) => v ?? "auto"),
  AGENT: optionalString.pipe(z.enum(AGENTS).optional()).transform((v) => v ?? "claude"),
  REVIEWER_AGENT: optionalString.pipe(z.enum(AGENTS).optional()),
  FIXER_AGENT: optionalString.pipe(z.enum(AGENTS).optional()),
  VERIFIER_AGENT: optionalString.pipe(z.enum(AGENTS).optional()),
  AGENTS_FROM_REPO: optionalString.pipe(z.enum(["on", "off"]).optional()).transform((v) => v === "on"),
  REVIEWER_MODEL: optionalString,
  FIXER_MODEL: optionalString,
  VERIFIER_MODEL: optionalString,
  AGENT_TIMEOUT: duration(15 * 60_000),
  AGENT_MODEL: optionalString,
  AGENT_MAX_OUTPUT_TOKENS: positiveInt(32_000),
  AGENT_SERVER_TOOLS: optionalString.pipe(z.enum(["on", "off"]).optional()).transform((v) => v === "on"),
  AGENT_ARGS: optionalString.transform((v) => (v ? v.split(/\s+/).filter(Boolean) : [])),
  FAKE_AGENT_SCENARIO: optionalString,
  FAKE_AGENT_HOME: optionalString,
  FAKE_AGENT_LOG: optionalString,
  AGENT_CLI: optionalString,
  AGENT_SANDBOX: optionalString.pipe(z.enum(["bubblewrap", "off"]).optional()).transform((v) => v ?? "bubblewrap"),
  GIT_TRUSTED_HOSTS: optionalString.transform((v) => (v ? v.split(/[\s,]+/).filter(Boolean) : [])),
  CHECKS: optionalString.pipe(z.enum(["on", "off"]).optional()).transform((v) => v !== "off"),
  CHECKS_REGISTRIES: optionalString.transform((v, ctx): EgressRule[] => {
    const texts = v ? v.split(/[\s,]+/).filter(Boolean) : DEFAULT_REGISTRIES;
    try {
      return texts.map(parseEgressRule);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: (error as Error).message });
      return z.NEVER;
    }
  }),
  CHECKS_CONCURRENCY: positiveInt(2),
  CHECKS_CACHE_MB: positiveInt(8192),
  AGENT_STATE_MAX_BYTES: optionalString,
  AGENT_MAX_PROCESSES: positiveInt(DEFAULT_TURN_LIMITS.maxProcesses),
  AGENT_MAX_MEMORY_MB: positiveInt(DEFAULT_TURN_LIMITS.maxMemoryMb),
  AGENT_MAX_FILE_MB: positiveInt(DEFAULT_TURN_LIMITS.maxFileMb),
  AGENT_MAX_WORKSPACE_MB: positiveInt(DEFAULT_TURN_LIMITS.maxWorkspaceMb),
  WORKSPACE_MAX_MB: positiveInt(4096),
  AGENT_SESSION_MAX_TOKENS: positiveInt(DEFAULT_SESSION_BUDGET_TOKENS),
  AGENT_CACHE_TTL: duration(DEFAULT_CACHE_TTL_MS),
  ANTHROPIC_API_KEY: optionalString,
  ANTHROPIC_BASE_URL: optionalString,
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalString,
  GEMINI_API_KEY: optionalString,
  GOOGLE_GEMINI_BASE_URL: optionalString,
  OPENCODE_PROVIDER: optionalString.pipe(z.enum(["anthropic", "openai"]).optional()).transform((v) => v ?? "anthropic"),
  OPENCODE_API_KEY: optionalString,
  OPENCODE_BASE_URL: optionalString,
  WORKER_CONCURRENCY: positiveInt(2),
  ROLE: optionalString.pipe(z.enum(["all", "web", "worker"]).optional()).transform((v) => v ?? "all"),
  WORKERS: optionalString.pipe(z.enum(["process", "inline"]).optional()).transform((v) => v ?? "process"),
  STOP_GRACE: duration(5 * 60_000),
  // `off` keeps the worker process running all along; else a duration (default 60 s).
  WORKER_IDLE_EXIT: optionalString.pipe(
    z
      .string()
      .optional()
      .transform((v, ctx): number | null => {
        if (v?.trim().toLowerCase() === "off") return null;
        const parsed = duration(60_000).safeParse(v);
        if (parsed.success) return parsed.data;
        ctx.addIssue({ code: "custom", message: `"${v}" is not a duration; write 60, 90s or 5m, or off` });
        return z.NEVER;
      }),
  ),
  GHE_HOST: optionalString,
  GHE_PROTOCOL: optionalString.pipe(z.enum(["https", "http"]).optional()).transform((v) => v ?? "https"),
  GITHUB_CLIENT_ID: optionalString,
  GITHUB_CLIENT_SECRET: optionalString,
  WEB_ADMINS: optionalString.transform((v, ctx) => {
    const entries = v ? v.split(/[\s,]+/).filter(Boolean) : [];
    // A login can be renamed and then claimed by anyone; the id GitHub gives an account is never reused.
    const notIds = entries.filter((entry) => !/^[1-9][0-9]{0,14}$/.test(entry));
    if (notIds.length === 0) return entries.map(Number);
    ctx.addIssue({
      code: "custom",
      message: `operators are named by their GitHub user ids (numbers), and these are not: ${notIds.map((l) => JSON.stringify(l)).join(", ")} (a login can be renamed and then taken by another account). A person's id is the "id" at https://api.github.com/users/${encodeURIComponent(notIds[0]!)}`,
    });
    return z.NEVER;
  }),
  NODE_ENV: optionalString,
  ENV_FILE: optionalString.transform((v) => v ?? ".env"),
});

export type ParsedEnv = z.infer<typeof envSchema>;
