import { describe, expect, it } from "vitest";
import { parseRepoConfig } from "../../../src/config/repo/repo-config.js";
import { buildRepairPrompt } from "../../../src/pipeline/review/build-repair-prompt.js";
import {
  buildReviewPrompt,
  reviewerMemoryOf,
  type ReviewPromptInput,
} from "../../../src/pipeline/review/build-review-prompt.js";
import { reproducersAsked } from "../../../src/pipeline/review/reproducers-asked.js";

const SHA = "2222222222222222222222222222222222222222";

function input(overrides: Partial<ReviewPromptInput> = {}): ReviewPromptInput {
  return {
    repository: "acme/widgets",
    pr: { number: 12, title: "Add b", body: "This adds b.", author: "octocat", baseRef: "main", headRef: "feature/b" },
    mode: "full",
    range: { from: "1".repeat(40), to: SHA },
    diff: "diff --git a/a b/a\n",
    openFindings: [],
    ...overrides,
  };
}

function config(yaml: string) {
  const parsed = parseRepoConfig(yaml);
  expect(parsed.problems).toEqual([]);
  return parsed.config;
}

const CHECKS = "checks:\n  commands:\n    - { name: tests, run: npm test }\n";

describe("reproducersAsked: only when the repository runs them and the app can", () => {
  it("with checks (and verify.reproducers on by default) in an app that runs commands: the time limit and policy", () => {
    expect(reproducersAsked(config(CHECKS), true)).toEqual({ timeoutSeconds: 120, blocking: "demote" });
    expect(reproducersAsked(config(`${CHECKS}verify:\n  blocking: drop\n  reproducer_timeout: 30s\n`), true)).toEqual({
      timeoutSeconds: 30,
      blocking: "drop",
    });
  });

  it("not without checks, not with verify.reproducers off, not in an app that runs no repository's commands", () => {
    expect(reproducersAsked(config(""), true)).toBeUndefined();
    expect(reproducersAsked(config(`${CHECKS}verify:\n  reproducers: false\n`), true)).toBeUndefined();
    expect(reproducersAsked(config(CHECKS), false)).toBeUndefined();
  });
});

describe("the reviewer's prompt and reproducers", () => {
  const asked = { timeoutSeconds: 90, blocking: "demote" as const };

  it("asks for a reproducer in the answer format, with how the app runs it and what its outcome does", () => {
    const prompt = buildReviewPrompt(input({ reproducers: asked }));
    expect(prompt).toContain(`"reproducer" (optional; give one only when you can)`);
    expect(prompt).toContain(`{"files":[{"path":"test/x.test.js","content":"…"}],"command":`);
    expect(prompt).toContain("The app, not you, adds the files and runs the command in the repository root");
    expect(prompt).toContain("with no network, within 90 s");
    expect(prompt).toContain("A finding whose reproducer passes is not posted.");
    expect(prompt).toContain("An error without a reproducer that fails is posted as an unverified warning.");
  });

  it("says what each verify.blocking does to an error nothing reproduced", () => {
    expect(buildReviewPrompt(input({ reproducers: { ...asked, blocking: "drop" } }))).toContain(
      "An error without a reproducer that fails is not posted.",
    );
    expect(buildReviewPrompt(input({ reproducers: { ...asked, blocking: "keep" } }))).not.toContain(
      "An error without a reproducer",
    );
  });

  it("says nothing of reproducers when the repository does not run them", () => {
    expect(buildReviewPrompt(input())).not.toContain("reproducer");
  });

  it("a resumed session told before is not told again; one told nothing of reproducers is told once", () => {
    const first = input({ reproducers: asked });
    const told = reviewerMemoryOf(first, []);
    expect(told.reproducers).toBe(true);
    const resumed = (seen: typeof told) =>
      buildReviewPrompt({ ...first, mode: "incremental", session: { kind: "resumed", seen, ledger: [] } });
    expect(resumed(told)).not.toContain("reproducer");
    const before = reviewerMemoryOf(input(), []);
    expect(before.reproducers).toBeUndefined();
    expect(resumed(before)).toContain(`A finding may now also carry a reproducer:\n- "reproducer" (optional;`);
  });

  it("the repair request spells out the reproducer too, when asked for", () => {
    expect(buildRepairPrompt(["findings[0].severity: required"], asked)).toContain(`"reproducer" (optional;`);
    expect(buildRepairPrompt(["findings[0].severity: required"])).not.toContain("reproducer");
  });
});
