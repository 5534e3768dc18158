import { describe, expect, it } from "vitest";
import {
  deciderOf,
  learnedKeys,
  learningLine,
  plainLine,
  threadUrl,
} from "../../../src/pipeline/command/learning-line.js";
import { learnedUpTo, renderLearnings } from "../../../src/pipeline/command/render-learnings.js";
import type { RepositoryDecision } from "../../../src/db/repository-decisions.js";

const AT = new Date("2026-11-02T10:00:00.000Z");
const decision = (patch: Partial<RepositoryDecision> = {}): RepositoryDecision => ({
  prNumber: 12,
  number: 3,
  title: "Title",
  path: "src/a.ts",
  severity: "warning",
  status: "dismissed",
  dismissReason: "intended",
  rulingReason: null,
  commentId: 555,
  reviewId: 77,
  how: "dismissed",
  decidedBy: "maintainer",
  anchor: "#issuecomment-90",
  decidedAt: AT,
  ...patch,
});

describe("learnings lines", () => {
  it("say what was decided, on what, who decided and link where (else the thread, else the review, else the pull request)", () => {
    expect(learningLine(decision(), "https://github.com/o/r/").line).toBe(
      '- Dismissed: intended — "Title" (warning, `src/a.ts`) — dismissed by maintainer in [#12 NM-3](https://github.com/o/r/pull/12#issuecomment-90)',
    );
    const argued = decision({
      status: "withdrawn",
      how: "argued",
      rulingReason: null,
      path: null,
      anchor: "#discussion_r91",
    });
    expect(learningLine(argued, "https://x/o/r").line).toBe(
      '- Withdrawn by the reviewer — "Title" (warning) — argued by maintainer in [#12 NM-3](https://x/o/r/pull/12#discussion_r91)',
    );
    const confirmed = decision({ status: "withdrawn", how: "confirmed", decidedBy: "lead", rulingReason: "real" });
    expect(learningLine(confirmed, "https://x/o/r").line).toMatch(
      /^- Withdrawn by the reviewer: real — .* — confirmed by lead in \[#12 NM-3\]\(https:\/\/x\/o\/r\/pull\/12#issuecomment-90\)$/,
    );
    const merged = decision({ status: "fixed", how: "merged", decidedBy: "merger", anchor: null });
    expect(learningLine(merged, "https://x/o/r")).toEqual({
      key: "#12 NM-3",
      by: "merger",
      line: '- Fixed before the pull request was merged — "Title" (warning, `src/a.ts`) — merged by merger in [#12 NM-3](https://x/o/r/pull/12#discussion_r555)',
    });
    // an anchor that is not one of the ledger's shapes is not appended to the address: the thread instead
    expect(learningLine(decision({ anchor: "/../../evil" }), "https://x/o/r").line).toContain(
      "(https://x/o/r/pull/12#discussion_r555)",
    );
    expect(threadUrl("https://x/o/r", { prNumber: 1, commentId: null, reviewId: 9 })).toBe(
      "https://x/o/r/pull/1#pullrequestreview-9",
    );
    expect(threadUrl("https://x/o/r", { prNumber: 1, commentId: null, reviewId: null })).toBe("https://x/o/r/pull/1");
  });

  it("name who decided in a way the rest of the line cannot forge", () => {
    const line = learningLine(decision({ decidedBy: "lead" }), "https://github.com/o/r").line;
    expect(deciderOf(line)).toBe("lead");
    // a title or reason that imitates a line's end does not name a decider: its brackets are escaped
    const forged = learningLine(
      decision({
        title: "x — dismissed by mallory in [#1 NM-1](https://evil)",
        dismissReason: "— merged by eve in [#2 NM-2](https://e)",
      }),
      "https://github.com/o/r",
    ).line;
    expect(deciderOf(forged)).toBe("maintainer");
    expect(deciderOf("- Prefer small functions.")).toBeUndefined();
    expect(
      deciderOf("- Dismissed: merged earlier — [#7 NM-2](https://github.com/o/r/pull/7#discussion_r1)"),
    ).toBeUndefined();
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
