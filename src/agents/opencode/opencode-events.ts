import { AgentError, type AgentErrorKind } from "../agent-error.js";

/** Token counts of a run, summed over its steps' `step_finish` events. */
export interface OpenCodeTokens {
  /** Uncached input. */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** The largest input (cached included) of one step: the session's size. */
  largestInput: number;
}

/** What one `opencode run --format json` printed, read from its JSON lines. */
export interface OpenCodeEvents {
  /** The `sessionID` the events carry (the last one wins). */
  sessionId?: string;
  /** The text parts after the last `step_start`: the turn's final answer. */
  finalText?: string;
  tokens: OpenCodeTokens;
  /** `step_finish` events seen (a run that answered has at least one). */
  steps: number;
  /** Messages of `error` events. */
  errors: string[];
  /** Lines that were not JSON objects. */
  unreadableLines: number;
  events: number;
}

type Json = Record<string, unknown>;

/** Reads the JSON lines of `opencode run --format json`; lines that are not JSON are counted, not fatal. */
export function parseOpenCodeEvents(stdout: string): OpenCodeEvents {
  const out: OpenCodeEvents = {
    tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, largestInput: 0 },
    steps: 0,
    errors: [],
    unreadableLines: 0,
    events: 0,
  };
  let texts: string[] = [];
  for (const raw of stdout.split("\n")) {
    const event = parseLine(raw);
    if (event === undefined) continue;
    if (event === null) {
      out.unreadableLines++;
      continue;
    }
    out.events++;
    if (typeof event.sessionID === "string") out.sessionId = event.sessionID;
    const part = (event.part ?? {}) as Json;
    switch (event.type) {
      case "step_start":
        texts = [];
        break;
      case "text":
        if (typeof part.text === "string") texts.push(part.text);
        break;
      case "step_finish":
        out.steps++;
        addTokens(out.tokens, part.tokens as Json | undefined);
        break;
      case "error":
        out.errors.push(errorMessage(event.error));
        break;
    }
  }
  if (texts.length > 0) out.finalText = texts.join("");
  return out;
}

/** undefined for a blank line, null for one that is not a JSON object. */
function parseLine(raw: string): Json | null | undefined {
  const line = raw.trim();
  if (!line) return undefined;
  try {
    const parsed = JSON.parse(line) as unknown;
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Json) : null;
  } catch {
    return null;
  }
}

function addTokens(total: OpenCodeTokens, tokens: Json | undefined): void {
  if (!tokens) return;
  const cache = (tokens.cache ?? {}) as Json;
  const input = num(tokens.input);
  const read = num(cache.read);
  const write = num(cache.write);
  total.input += input;
  total.output += num(tokens.output) + num(tokens.reasoning);
  total.cacheRead += read;
  total.cacheWrite += write;
  total.largestInput = Math.max(total.largestInput, input + read + write);
}

/** An `error` event's words: `error.data.message`, else its name, else the event as JSON. */
function errorMessage(error: unknown): string {
  const e = (error ?? {}) as Json;
  const data = (e.data ?? {}) as Json;
  if (typeof data.message === "string") return typeof e.name === "string" ? `${e.name}: ${data.message}` : data.message;
  if (typeof e.message === "string") return e.message;
  if (typeof e.name === "string") return e.name;
  return JSON.stringify(error ?? "error");
}

function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

/** A resume's failures that mean the stored session is gone or its database unreadable: a fresh session can run. */
const RESUME_FAILED =
  /session not found|NotFoundError|not a database|database disk image is malformed|SQLITE_(CORRUPT|NOTADB)/i;
const TRANSIENT =
  /\b429\b|too many requests|rate.?limit|\b5\d\d\b|internal server error|bad gateway|service unavailable|gateway timeout|overloaded|connection (refused|reset|closed)|ECONNREFUSED|ECONNRESET|ETIMEDOUT|timed out|socket hang up|network/i;

/** The kind of a failed run, from its failure words; `resuming`: a session was asked for. */
export function classifyOpenCodeFailure(message: string, resuming: boolean): AgentErrorKind {
  if (resuming && RESUME_FAILED.test(message)) return "resume-failed";
  if (TRANSIENT.test(message)) return "transient";
  return "other";
}

/** The useful end of stderr: its last lines without terminal colours, capped. */
export function stderrTail(stderr: string, maxChars = 2000): string {
  const plain = stderr.replace(/\u001b\[[0-9;]*m/g, "");
  const tail = plain
    .split("\n")
    .map((l) => l.trimEnd())
    .filter(Boolean)
    .slice(-10)
    .join("\n");
  return tail.length > maxChars ? tail.slice(-maxChars) : tail;
}

/** An AgentError whose message never holds the secrets. */
export function openCodeError(kind: AgentErrorKind, message: string, secrets: Array<string | undefined>): AgentError {
  let out = message;
  for (const secret of secrets) if (secret && secret.length >= 4) out = out.split(secret).join("[redacted]");
  return new AgentError(kind, out);
}
