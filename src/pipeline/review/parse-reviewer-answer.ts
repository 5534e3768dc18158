import type { z } from "zod";
import { reviewerAnswerSchema, type ReviewerAnswer } from "./reviewer-answer.js";

/** More problems than this are summed up in one line: a repair request must stay short. */
const MAX_PROBLEMS = 20;
/** Offending values are quoted in problems up to this many characters. */
const MAX_QUOTE = 40;

/**
 * Validates the reviewer's parsed JSON answer (docs/architecture.md, "Reviewer answer"). On failure, `problems` are short
 * lines such as `findings[2].severity: expected one of error, warning, info (got "critical")`,
 * worded to be sent back to the agent in a repair request and shown to a user in a check run.
 * `value` is whatever the agent's final message parsed to; `undefined` means it held no JSON.
 */
export function parseReviewerAnswer(
  value: unknown,
): { ok: true; answer: ReviewerAnswer } | { ok: false; problems: string[] } {
  if (value === undefined) return { ok: false, problems: ["answer: no JSON object found in the final message"] };
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { ok: false, problems: [`answer: expected a JSON object, got ${kindOf(value)}`] };

  const result = reviewerAnswerSchema.safeParse(value, { error: message });
  if (result.success) return { ok: true, answer: result.data };

  const problems = [...new Set(result.error.issues.map((issue) => `${pathOf(issue.path)}: ${issue.message}`))];
  if (problems.length > MAX_PROBLEMS) {
    const more = problems.length - MAX_PROBLEMS;
    problems.splice(MAX_PROBLEMS, more, `… and ${more} more problem${more === 1 ? "" : "s"}`);
  }
  return { ok: false, problems };
}

/** Plain-words messages for the issues the schema does not word itself. */
function message(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "required";
      return `expected ${article(issue.expected)}, got ${kindOf(issue.input)}`;
    case "invalid_value":
      if (issue.input === undefined) return `required: one of ${issue.values.map(String).join(", ")}`;
      return `expected one of ${issue.values.map(String).join(", ")}${quote(issue.input)}`;
    default:
      return undefined;
  }
}

/** `["findings", 2, "severity"]` → `findings[2].severity`. */
function pathOf(path: readonly PropertyKey[]): string {
  let text = "";
  for (const key of path) {
    if (typeof key === "number") text += `[${key}]`;
    else if (typeof key === "string" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) text += text === "" ? key : `.${key}`;
    else text += `[${JSON.stringify(String(key))}]`;
  }
  return text === "" ? "answer" : text;
}

function article(expected: string): string {
  if (expected === "array") return "a list";
  if (expected === "object") return "an object";
  if (expected === "int") return "a whole number";
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return `a string (${JSON.stringify(shorten(value))})`;
  if (typeof value === "number") return `a number (${value})`;
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

/** ` (got "critical")`, shortened; empty for values not worth quoting. */
function quote(value: unknown): string {
  if (typeof value !== "string" && typeof value !== "number") return "";
  return typeof value === "string" ? ` (got ${JSON.stringify(shorten(value))})` : ` (got ${value})`;
}

function shorten(text: string): string {
  return text.length > MAX_QUOTE ? `${text.slice(0, MAX_QUOTE)}…` : text;
}
