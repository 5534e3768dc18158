import { describe, expect, it } from "vitest";
import { parseReviewerAnswer } from "../../../src/pipeline/review/parse-reviewer-answer.js";
import { reviewerAnswerSchema, type ReviewerAnswer } from "../../../src/pipeline/review/reviewer-answer.js";

const FINDING = {
  path: "src/a.ts",
  line: 42,
  severity: "error",
  action: "auto-fix",
  title: "Null deref",
  body: "x may be null",
};

/** An answer with one finding, `changes` merged into that finding (undefined deletes a key). */
function withFinding(changes: Record<string, unknown>): unknown {
  const finding: Record<string, unknown> = { ...FINDING, ...changes };
  for (const key of Object.keys(finding)) if (finding[key] === undefined) delete finding[key];
  return { summary: "s", findings: [finding], resolved: [] };
}

function accepted(value: unknown): ReviewerAnswer {
  const result = parseReviewerAnswer(value);
  if (!result.ok) throw new Error(`expected the answer to be accepted, got: ${result.problems.join("; ")}`);
  return result.answer;
}

function problems(value: unknown): string[] {
  const result = parseReviewerAnswer(value);
  if (result.ok) throw new Error(`expected the answer to be rejected, got ${JSON.stringify(result.answer)}`);
  return result.problems;
}

describe("parseReviewerAnswer: accepted answers", () => {
  it("accepts the full documented shape (docs/architecture.md) as is", () => {
    const answer = accepted({
      summary: "Two problems.",
      findings: [
        {
          id: "NM-3",
          path: "src/a.ts",
          line: 42,
          end_line: 44,
          severity: "error",
          action: "auto-fix",
          title: "t",
          body: "b",
          suggestion: "x",
        },
      ],
      resolved: ["NM-1"],
    });
    expect(answer).toEqual({
      summary: "Two problems.",
      findings: [
        {
          id: "NM-3",
          path: "src/a.ts",
          line: 42,
          end_line: 44,
          severity: "error",
          action: "auto-fix",
          title: "t",
          body: "b",
          suggestion: "x",
        },
      ],
      resolved: ["NM-1"],
    });
  });

  it("accepts an answer with no findings", () => {
    expect(accepted({ summary: "LGTM", findings: [] })).toEqual({ summary: "LGTM", findings: [], resolved: [] });
  });

  it.each<[string, Record<string, unknown>, Partial<ReviewerAnswer["findings"][number]>]>([
    ["severity in capitals", { severity: "ERROR" }, { severity: "error" }],
    ["severity with spaces", { severity: " Warning " }, { severity: "warning" }],
    ["action in mixed case", { action: "Ask-User" }, { action: "ask-user" }],
    ["action with an underscore", { action: "AUTO_FIX" }, { action: "auto-fix" }],
    ["missing action → ask-user", { action: undefined }, { action: "ask-user" }],
    ["null action → ask-user", { action: null }, { action: "ask-user" }],
    ["line as a numeric string", { line: "42", end_line: " 44 " }, { line: 42, end_line: 44 }],
    ["null line → absent", { line: null }, { line: undefined }],
    ["missing line (whole-file finding)", { line: undefined }, { line: undefined }],
    [
      "null end_line / suggestion / id → absent",
      { end_line: null, suggestion: null, id: null },
      { end_line: undefined, suggestion: undefined, id: undefined },
    ],
    ["empty id → absent", { id: "  " }, { id: undefined }],
    ["lower-case id", { id: " nm-7 " }, { id: "NM-7" }],
    ["missing body → empty", { body: undefined }, { body: "" }],
    [
      "title and path trimmed",
      { title: "  Null deref ", path: " src/a.ts " },
      { title: "Null deref", path: "src/a.ts" },
    ],
    ["end_line equal to line", { line: 5, end_line: 5 }, { line: 5, end_line: 5 }],
    ["empty suggestion (delete the lines) kept", { suggestion: "" }, { suggestion: "" }],
    ["unknown keys dropped", { confidence: 0.9, category: "bug" }, {}],
  ])("accepts %s", (_name, changes, expected) => {
    const finding = accepted(withFinding(changes)).findings[0]!;
    for (const [key, value] of Object.entries(expected)) {
      if (value === undefined) expect(finding).not.toHaveProperty(key);
      else expect(finding).toHaveProperty(key, value);
    }
    expect(finding).not.toHaveProperty("confidence");
  });

  it.each<[string, unknown, Partial<ReviewerAnswer>]>([
    ["missing resolved → []", { summary: "s", findings: [] }, { resolved: [] }],
    ["null resolved → []", { summary: "s", findings: [], resolved: null }, { resolved: [] }],
    [
      "resolved ids normalized and deduplicated",
      { summary: "s", findings: [], resolved: ["nm-1", "NM-1", " NM-2 "] },
      { resolved: ["NM-1", "NM-2"] },
    ],
    ["missing summary → empty", { findings: [] }, { summary: "" }],
    ["unknown top-level keys dropped", { summary: "s", findings: [], verdict: "approve" }, { summary: "s" }],
  ])("accepts %s", (_name, value, expected) => {
    const answer = accepted(value);
    expect(answer).toMatchObject(expected);
    expect(answer).not.toHaveProperty("verdict");
  });
});

describe("parseReviewerAnswer: rejected answers and their problems", () => {
  it.each<[string, unknown, string[]]>([
    ["no JSON at all", undefined, ["answer: no JSON object found in the final message"]],
    ["a list instead of an object", [FINDING], ["answer: expected a JSON object, got a list"]],
    ["a string instead of an object", "LGTM", ['answer: expected a JSON object, got a string ("LGTM")']],
    ["null", null, ["answer: expected a JSON object, got null"]],
    ["missing findings", { summary: "s" }, ["findings: required"]],
    ["findings under another name", { summary: "s", issues: [] }, ["findings: required"]],
    ["findings not a list", { summary: "s", findings: "none" }, ['findings: expected a list, got a string ("none")']],
    ["summary not a string", { summary: 3, findings: [] }, ["summary: expected a string, got a number (3)"]],
    ["missing title", withFinding({ title: undefined }), ["findings[0].title: required"]],
    ["blank title", withFinding({ title: "   " }), ["findings[0].title: must not be empty"]],
    ["missing path", withFinding({ path: undefined }), ["findings[0].path: required"]],
    ["empty path", withFinding({ path: "" }), ["findings[0].path: must not be empty"]],
    ["path not a string", withFinding({ path: 7 }), ["findings[0].path: expected a string, got a number (7)"]],
    [
      "missing severity",
      withFinding({ severity: undefined }),
      ["findings[0].severity: required: one of error, warning, info"],
    ],
    [
      "unknown severity",
      withFinding({ severity: "Critical" }),
      ['findings[0].severity: expected one of error, warning, info (got "Critical")'],
    ],
    [
      "unknown action",
      withFinding({ action: "fix it" }),
      ['findings[0].action: expected one of auto-fix, ask-user, no-op (got "fix it")'],
    ],
    ["line 0", withFinding({ line: 0 }), ["findings[0].line: expected a line number >= 1"]],
    ["negative line", withFinding({ line: -3 }), ["findings[0].line: expected a line number >= 1"]],
    ["fractional line", withFinding({ line: 4.5 }), ["findings[0].line: expected a whole number"]],
    ["non-numeric line", withFinding({ line: "L42" }), ['findings[0].line: expected a number, got a string ("L42")']],
    [
      "end_line before line",
      withFinding({ line: 10, end_line: 8 }),
      ["findings[0].end_line: must not be before line (10)"],
    ],
    [
      "end_line without line",
      withFinding({ line: undefined, end_line: 8 }),
      ["findings[0].end_line: given without line"],
    ],
    [
      "malformed id",
      withFinding({ id: "issue-3" }),
      ['findings[0].id: expected a finding id like NM-3 (got "issue-3")'],
    ],
    [
      "malformed resolved id",
      { summary: "s", findings: [], resolved: ["NM-1", "3"] },
      ['resolved[1]: expected a finding id like NM-3 (got "3")'],
    ],
    [
      "resolved not a list",
      { summary: "s", findings: [], resolved: "NM-1" },
      ['resolved: expected a list, got a string ("NM-1")'],
    ],
  ])("rejects %s", (_name, value, expected) => {
    expect(problems(value)).toEqual(expected);
  });

  it("names the finding by its index and lists every problem", () => {
    const value = {
      summary: "s",
      findings: [FINDING, FINDING, { ...FINDING, severity: "high", title: "" }],
    };
    expect(problems(value)).toEqual([
      'findings[2].severity: expected one of error, warning, info (got "high")',
      "findings[2].title: must not be empty",
    ]);
  });

  it("shortens long offending values", () => {
    const [problem] = problems(withFinding({ severity: "x".repeat(500) }));
    expect(problem).toBe(`findings[0].severity: expected one of error, warning, info (got "${"x".repeat(40)}…")`);
  });

  it("caps the list so a repair request stays short", () => {
    const findings = Array.from({ length: 30 }, () => ({ ...FINDING, severity: "bad" }));
    const list = problems({ summary: "s", findings });
    expect(list).toHaveLength(21);
    expect(list[19]).toBe('findings[19].severity: expected one of error, warning, info (got "bad")');
    expect(list[20]).toBe("… and 10 more problems");
  });
});

describe("reviewerAnswerSchema", () => {
  it("is the schema parseReviewerAnswer applies", () => {
    expect(
      reviewerAnswerSchema.safeParse({ findings: [{ ...FINDING, severity: "INFO" }] }).data?.findings[0]?.severity,
    ).toBe("info");
    expect(reviewerAnswerSchema.safeParse({ findings: [{ ...FINDING, title: undefined }] }).success).toBe(false);
  });
});

describe("parseReviewerAnswer: a finding's reproducer", () => {
  const REPRODUCER = {
    files: [{ path: "test/a.test.ts", content: "test('x', () => expect(a()).toBe(1));\n" }],
    command: "npx vitest run test/a.test.ts",
    expect: "expected 2 to be 1",
  };

  it("keeps a well-formed reproducer as given (null optional fields absent, files may be omitted)", () => {
    expect(accepted(withFinding({ reproducer: REPRODUCER })).findings[0]!.reproducer).toEqual(REPRODUCER);
    expect(accepted(withFinding({ reproducer: { command: " make repro ", expect: null } })).findings[0]).toMatchObject({
      reproducer: { files: [], command: "make repro" },
    });
    expect(accepted(withFinding({ reproducer: null })).findings[0]).not.toHaveProperty("reproducer");
  });

  it.each([
    ["a string", "npm test", "reproducer: expected an object"],
    ["no command", { files: [] }, "reproducer.command: required"],
    ["an empty command", { command: "  " }, "reproducer.command: must not be empty"],
    ["files not a list", { files: "a.js", command: "node a.js" }, "reproducer.files: expected a list"],
    [
      "a file without a path",
      { files: [{ content: "x" }], command: "node a.js" },
      "reproducer.files[0].path: required",
    ],
    [
      "a file's content not text",
      { files: [{ path: "a.js", content: 3 }], command: "x" },
      "reproducer.files[0].content: expected a string",
    ],
  ])("a malformed reproducer (%s) is left out with why; the finding and the answer are kept", (_, reproducer, why) => {
    const answer = accepted(withFinding({ reproducer }));
    expect(answer.findings).toHaveLength(1);
    expect(answer.findings[0]).toMatchObject({ title: "Null deref", reproducer_problem: why });
    expect(answer.findings[0]).not.toHaveProperty("reproducer");
  });
});
