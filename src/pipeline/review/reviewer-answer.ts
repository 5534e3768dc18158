import { z } from "zod";
import type { Reproducer } from "../../db/schema.js";

/** A finding id as the bot mints them: NM-1, NM-2, ... */
const FINDING_ID = /^NM-[1-9][0-9]*$/;
const SEVERITIES = ["error", "warning", "info"] as const;
const ACTIONS = ["auto-fix", "ask-user", "no-op"] as const;

/**
 * The reviewer agent's JSON answer (docs/architecture.md, "Reviewer answer"), as the bot accepts it.
 *
 * Lenient where a slip is harmless, so that a usable answer never costs a repair round trip:
 * - `null` counts as absent for every optional field (agents like to write `"line": null`);
 * - `severity` and `action` are case-insensitive (`"Error"`, `"AUTO_FIX"`);
 * - `line` / `end_line` may be numeric strings (`"42"`);
 * - finding ids are trimmed and upper-cased (`"nm-3"` → `"NM-3"`); an empty id counts as absent;
 * - a missing `summary` or `body` is an empty string, a missing `resolved` an empty list,
 *   a missing `action` is `ask-user` (the choice that never lets the fixer act unasked);
 * - unknown keys are dropped.
 *
 * Strict where a guess would be wrong: `findings` must be present (a misnamed list would otherwise
 * silently lose every finding), and every finding needs a `path`, a non-empty `title` and a known
 * `severity`. Line numbers are whole numbers ≥ 1 and `end_line` needs a `line` at or before it.
 * `broken_by` (optional) names the changed line that breaks the finding's code: a `path` and a `line`.
 * `reproducer` (optional) is kept only when it reads as one (`files` of `path`/`content`, a `command`, an
 * optional `expect`): a malformed one is left out, and the finding kept with `reproducer_problem` saying why,
 * so that a slip in a reproducer never costs the finding nor the answer.
 * Whether a path stays inside the repository, or a line inside its file, is decided later (such
 * findings are dropped with a note, not rejected here).
 */
export const reviewerAnswerSchema = z.object({
  summary: z.preprocess(absent, z.string().default("")),
  findings: z.array(
    z
      .object({
        id: z.preprocess(findingId, findingIdSchema().optional()),
        path: z.string().trim().min(1, "must not be empty"),
        line: z.preprocess(lineNumber, lineSchema().optional()),
        end_line: z.preprocess(lineNumber, lineSchema().optional()),
        severity: z.preprocess(keyword(SEVERITIES), z.enum(SEVERITIES)),
        action: z.preprocess(keyword(ACTIONS), z.enum(ACTIONS).default("ask-user")),
        title: z.string().trim().min(1, "must not be empty"),
        body: z.preprocess(absent, z.string().default("")),
        suggestion: z.preprocess(absent, z.string().optional()),
        broken_by: z.preprocess(
          absent,
          z
            .object({
              path: z.string().trim().min(1, "must not be empty"),
              line: z.preprocess(lineNumber, lineSchema()),
            })
            .transform(withoutAbsentKeys)
            .optional(),
        ),
        reproducer: z.preprocess(absent, z.unknown().optional()),
      })
      .superRefine((finding, ctx) => {
        if (finding.end_line === undefined) return;
        if (finding.line === undefined)
          ctx.addIssue({ code: "custom", path: ["end_line"], message: "given without line" });
        else if (finding.end_line < finding.line)
          ctx.addIssue({ code: "custom", path: ["end_line"], message: `must not be before line (${finding.line})` });
      })
      .transform((finding) => withoutAbsentKeys(withReproducer(finding))),
  ),
  resolved: z.preprocess(
    absent,
    z
      .array(z.preprocess(findingId, findingIdSchema()))
      .default([])
      .transform((ids) => [...new Set(ids)]),
  ),
});

export type ReviewerAnswer = z.output<typeof reviewerAnswerSchema>;

/** A reproducer as the reviewer writes it: files to add, a command that fails on the head, optional expected text. */
const reproducerSchema = z
  .object({
    files: z.preprocess(
      absent,
      z
        .array(
          z
            .object({ path: z.string().trim().min(1, "must not be empty"), content: z.string() })
            .transform(({ path, content }) => ({ path, content })),
        )
        .default([]),
    ),
    command: z.string().trim().min(1, "must not be empty"),
    expect: z.preprocess(absent, z.string().optional()),
  })
  .transform(withoutAbsentKeys);

const KINDS: Record<string, string> = { array: "a list", object: "an object", string: "a string" };

/** `expected a list`, `required`: a reproducer's wrong types in plain words. */
function typeMessage(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code !== "invalid_type") return undefined;
  return issue.input === undefined ? "required" : `expected ${KINDS[issue.expected] ?? issue.expected}`;
}

/** The finding with its reproducer read: kept when it is one, else left out with `reproducer_problem`. */
function withReproducer<T extends { reproducer?: unknown }>(
  finding: T,
): Omit<T, "reproducer"> & { reproducer?: Reproducer; reproducer_problem?: string } {
  const { reproducer, ...rest } = finding;
  if (reproducer === undefined) return rest;
  const read = reproducerSchema.safeParse(reproducer, { error: typeMessage });
  if (read.success) return { ...rest, reproducer: read.data };
  const issue = read.error.issues[0]!;
  const where = issue.path.length
    ? `${issue.path.map((k) => (typeof k === "number" ? `[${k}]` : `.${String(k)}`)).join("")}: `
    : ": ";
  return { ...rest, reproducer_problem: `reproducer${where}${issue.message}`.replace(/\.\[/g, "[") };
}

function findingIdSchema() {
  return z.string().regex(FINDING_ID, {
    error: (issue) => `expected a finding id like NM-3 (got ${JSON.stringify(String(issue.input).slice(0, 40))})`,
  });
}

function lineSchema() {
  return z.number().int("expected a whole number").min(1, "expected a line number >= 1");
}

/** `{ line: undefined, ... }` → `{ ... }`: absent fields are absent keys, as in the JSON. */
function withoutAbsentKeys<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** `null` → absent. */
function absent(value: unknown): unknown {
  return value === null ? undefined : value;
}

/** `" nm-3 "` → `"NM-3"`; `null` / `""` → absent; anything else is left as written. */
function findingId(value: unknown): unknown {
  if (typeof value !== "string") return absent(value);
  const id = value.trim();
  if (id === "") return undefined;
  return FINDING_ID.test(id.toUpperCase()) ? id.toUpperCase() : value;
}

/** `"42"` → 42; `null` → absent. Anything else is left for the schema to reject. */
function lineNumber(value: unknown): unknown {
  if (typeof value === "string" && /^\s*[0-9]+\s*$/.test(value)) return Number(value);
  return absent(value);
}

/**
 * `" Auto_Fix "` → `"auto-fix"` when that is one of `words`; `null` → absent. A value that matches
 * none is left as written, so that the problem quotes what the agent actually wrote.
 */
function keyword(words: readonly string[]): (value: unknown) => unknown {
  return (value) => {
    if (typeof value !== "string") return absent(value);
    const word = value
      .trim()
      .toLowerCase()
      .replace(/[_\s]+/g, "-");
    return words.includes(word) ? word : value;
  };
}
