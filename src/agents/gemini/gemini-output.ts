import { AgentError, type AgentErrorKind } from "../agent-error.js";
import type { AgentUsage } from "../types.js";

/** What `gemini --output-format json` prints. */
export interface GeminiOutput {
  session_id?: string;
  response?: string;
  error?: { type?: string; message?: string; code?: number | string };
  stats?: {
    models?: Record<string, { tokens?: { prompt?: number; cached?: number; candidates?: number; thoughts?: number } }>;
  };
}

/** The JSON object of stdout: the whole of it, else its last block that parses (stray lines before it). */
export function parseGeminiOutput(stdout: string): GeminiOutput | undefined {
  const text = stdout.trim();
  for (let start = text.indexOf("{"); start >= 0; start = text.indexOf("\n{", start + 1)) {
    try {
      const value = JSON.parse(text.slice(start).trim()) as unknown;
      if (value && typeof value === "object" && !Array.isArray(value)) return value as GeminiOutput;
    } catch {
      // not from here
    }
  }
  return undefined;
}

/** The turn's usage over every model it used: `prompt` includes the cached tokens; thinking is output. */
export function geminiUsage(output: GeminiOutput): AgentUsage {
  const usage: AgentUsage = { tokensIn: 0, tokensOut: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  for (const model of Object.values(output.stats?.models ?? {})) {
    const t = model.tokens ?? {};
    usage.tokensIn += num(t.prompt);
    usage.tokensOut += num(t.candidates) + num(t.thoughts);
    usage.cacheReadTokens! += num(t.cached);
  }
  return usage;
}

/**
 * Exit codes of Gemini CLI 0.61: 42 a bad input (a session to resume that is not there, another
 * cwd's, unreadable), 41 no usable authentication, 44 a sandbox error, 52 bad configuration, 53 the
 * turn limit, 55 an untrusted folder, 130 cancelled; 144 (and 1) a failed model call, said on stderr.
 */
const RESUME_FAILED = /Error resuming session|Invalid session identifier|No previous sessions found/i;
const TRANSIENT =
  /\b(429|5\d\d)\b|RESOURCE_EXHAUSTED|UNAVAILABLE|overloaded|rate.?limit|quota|too many requests|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|socket hang up|fetch failed|network/i;

/** Why a gemini call failed, from its exit code and what it said. */
export function classifyGeminiFailure(exitCode: number | null, detail: string, resuming: boolean): AgentErrorKind {
  if (resuming && (exitCode === 42 || RESUME_FAILED.test(detail))) return "resume-failed";
  if (exitCode === 41 || exitCode === 52 || exitCode === 55) return "other";
  return TRANSIENT.test(detail) ? "transient" : "other";
}

/** A failure whose message carries no secret. */
export function geminiError(kind: AgentErrorKind, message: string, secrets: Array<string | undefined>): AgentError {
  let out = message;
  for (const secret of secrets) if (secret && secret.length >= 4) out = out.split(secret).join("[redacted]");
  return new AgentError(kind, out);
}

/** The useful end of stderr: its last lines without the terminal's colour warning, capped. */
export function geminiStderrTail(stderr: string, maxChars = 1500): string {
  const lines = stderr
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line && !/256-color support|Ripgrep is not available/.test(line));
  const tail = lines.slice(-12).join("\n");
  return tail.length > maxChars ? `…${tail.slice(-maxChars)}` : tail;
}

function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}
