import { AgentError, type AgentErrorKind } from "../agent-error.js";

/** Token totals as `codex exec --json` reports them in `turn.completed.usage`. */
export interface CodexTokenTotals {
  input: number;
  output: number;
  /** Of input: served from the provider's prompt cache (`cached_input_tokens`). */
  cached?: number;
}

/** What one `codex exec --json` run printed, read from its JSON lines. */
export interface CodexEvents {
  /** From `thread.started` (the last one wins). */
  threadId?: string;
  /** The text of the last `agent_message` item. */
  finalText?: string;
  /** Sum of the `turn.completed` usages (codex prints one per exec; on a resumed thread it is the thread's total). */
  usage?: CodexTokenTotals;
  turnCompleted: boolean;
  /** `turn.failed.error.message`. */
  turnFailed?: string;
  /** Messages of `error` events (some are retries that later succeeded). */
  errors: string[];
  /** Lines that were not JSON objects. */
  unreadableLines: number;
  /** Lines that were JSON events. */
  events: number;
}

/** Reads the JSON lines of `codex exec --json`; lines that are not JSON are counted, not fatal. */
export function parseCodexEvents(stdout: string): CodexEvents {
  const out: CodexEvents = { turnCompleted: false, errors: [], unreadableLines: 0, events: 0 };
  for (const raw of stdout.split("\n")) {
    const line = raw.trim();
    if (!line) continue;
    let event: Record<string, unknown>;
    try {
      const parsed = JSON.parse(line) as unknown;
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
      event = parsed as Record<string, unknown>;
    } catch {
      out.unreadableLines++;
      continue;
    }
    out.events++;
    switch (event.type) {
      case "thread.started":
        if (typeof event.thread_id === "string") out.threadId = event.thread_id;
        break;
      case "item.completed": {
        const item = event.item as Record<string, unknown> | undefined;
        if (item?.type === "agent_message" && typeof item.text === "string") out.finalText = item.text;
        break;
      }
      case "turn.completed": {
        out.turnCompleted = true;
        const usage = event.usage as Record<string, unknown> | undefined;
        const input = num(usage?.input_tokens);
        const output = num(usage?.output_tokens);
        out.usage = {
          input: (out.usage?.input ?? 0) + input,
          output: (out.usage?.output ?? 0) + output,
          cached: (out.usage?.cached ?? 0) + num(usage?.cached_input_tokens),
        };
        break;
      }
      case "turn.failed": {
        const error = event.error as Record<string, unknown> | undefined;
        out.turnFailed =
          typeof error?.message === "string" ? error.message : JSON.stringify(event.error ?? "turn failed");
        break;
      }
      case "error":
        if (typeof event.message === "string") out.errors.push(event.message);
        break;
    }
  }
  return out;
}

function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

const RESUME_FAILED =
  /no rollout found|thread\/resume failed|failed to resume|could not find (the )?(thread|session|rollout)/i;
const TRANSIENT =
  /\b429\b|too many requests|rate.?limit|status:?\s*5\d\d\b|HTTP\s*5\d\d\b|internal server error|bad gateway|service unavailable|gateway timeout|overloaded|high demand|stream disconnected|stream error|error sending request|connection (refused|reset|closed)|ECONNREFUSED|ECONNRESET|ETIMEDOUT|timed out|network|exceeded retry limit|idle timeout/i;

/** The kind of a failed codex run, from its failure message(s). */
export function classifyCodexFailure(message: string): AgentErrorKind {
  if (RESUME_FAILED.test(message)) return "resume-failed";
  if (TRANSIENT.test(message)) return "transient";
  return "other";
}

/** Replaces every occurrence of the secrets in a message. */
export function redact(message: string, secrets: Array<string | undefined>): string {
  let out = message;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join("[redacted]");
  }
  return out;
}

/** The useful end of stderr: its last non-noise lines, capped. */
export function stderrTail(stderr: string, maxChars = 2000): string {
  const lines = stderr
    .split("\n")
    .map((l) => l.trimEnd())
    .filter((l) => l && !l.startsWith("WARNING: proceeding, even though we could not create PATH aliases"));
  const tail = lines.slice(-10).join("\n");
  return tail.length > maxChars ? tail.slice(-maxChars) : tail;
}

export function codexError(kind: AgentErrorKind, message: string, secrets: Array<string | undefined>): AgentError {
  return new AgentError(kind, redact(message, secrets));
}
