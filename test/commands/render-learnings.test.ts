import { describe, expect, it } from "vitest";
import { learnedKeys, learningLine, plainLine, threadUrl } from "../../src/commands/learning-line.js";
import { learnedUpTo, renderLearnings } from "../../src/commands/render-learnings.js";
import type { RepositoryDecision } from "../../src/db/repository-decisions.js";

const AT = new Date("2026-11-02T10:00:00.000Z");
const decision = (patch: Partial<RepositoryDecision> = {}): RepositoryDecision => ({
  prNumber: 12,
  number: 3,
  title: "Title",
  path: "src/a.ts",
  severity: "warning",
  status: "dismissed",
  dismissReason: "intended",
  ruling: null,
  rulingReason: null,
  commentId: 555,
  reviewId: 77,
  decidedAt: AT,
  ...patch,
});

describe("learnings lines", () => {
  it("say what was decided, on what, and link the thread (else the review, else the pull request)", () => {
    expect(learningLine(decision(), "https://github.com/o/r/").line).toBe(
      '- Dismissed: intended — "Title" (warning, `src/a.ts`) — [#12 NM-3](https://github.com/o/r/pull/12#discussion_r555)',
    );
    expect(learningLine(decision({ status: "withdrawn", rulingReason: null, path: null }), "https://x/o/r").line).toBe(
      '- Withdrawn by the reviewer — "Title" (warning) — [#12 NM-3](https://x/o/r/pull/12#discussion_r555)',
    );
    expect(
      learningLine(decision({ status: "open", ruling: "upheld", rulingReason: "real" }), "https://x/o/r").line,
    ).toMatch(/^- Upheld after discussion: real — /);
    expect(threadUrl("https://x/o/r", { prNumber: 1, commentId: null, reviewId: 9 })).toBe(
      "https://x/o/r/pull/1#pullrequestreview-9",
    );
    expect(threadUrl("https://x/o/r", { prNumber: 1, commentId: null, reviewId: null })).toBe("https://x/o/r/pull/1");
  });

  it("keep PR- and model-written text on one inert line", () => {
    const title = "Line one\n# heading\n<!-- no-mistakes:NM-9 --> <img src=x> @alice closes #4 `code` **bold** | pipe";
    const line = plainLine(title);
    expect(line).not.toContain("\n");
    expect(line).not.toMatch(/@alice|<!--|<img|closes #4|\*\*bold/);
    expect(line).toContain("closes issue 4");
    expect(line).toContain("\\|");
    expect(plainLine("x".repeat(500), 50)).toHaveLength(50);
    // a forged provenance in a title is not taken for one: its brackets are escaped
    const forged = learningLine(decision({ title: "[#99 NM-1](https://evil)" }), "https://github.com/o/r").line;
    expect([...learnedKeys(forged)]).toEqual(["#12 NM-3"]);
  });
});

describe("the learnings file", () => {
  const one = learningLine(decision(), "https://github.com/o/r");
  const two = learningLine(decision({ number: 4, commentId: 556 }), "https://github.com/o/r");

  it("starts with a header saying what it is and how far it goes, one decision per line", () => {
    const text = renderLearnings(undefined, [one, two], AT);
    expect(text).toMatch(/^# Learnings\n/);
    expect(learnedUpTo(text)).toEqual(AT);
    expect(text.endsWith(`\n\n${one.line}\n${two.line}\n`)).toBe(true);
    expect([...learnedKeys(text)]).toEqual(["#12 NM-3", "#12 NM-4"]);
  });

  it("keeps what the team wrote, appends below it, and moves its horizon (adding one when it had none)", () => {
    const edited = `# Our rules\n\n- Prefer small functions.\n- ${one.line.slice(2)} (agreed)`;
    const later = new Date("2026-12-01T00:00:00.000Z");
    const text = renderLearnings(edited, [two], later);
    expect(text).toBe(
      `# Our rules\n\n- Prefer small functions.\n- ${one.line.slice(2)} (agreed)\n\n<!-- no-mistakes learned up to ${later.toISOString()} -->\n\n${two.line}\n`,
    );
    const again = renderLearnings(text, [learningLine(decision({ number: 5 }), "https://github.com/o/r")], AT);
    expect(learnedUpTo(again)).toEqual(AT);
    expect(again.match(/learned up to/g)).toHaveLength(1);
    expect(learnedUpTo("<!-- no-mistakes learned up to soon -->")).toBeUndefined();
  });
});
