import { describe, expect, it } from "vitest";
import { parseRepoConfig } from "../../../src/config/repo/repo-config.js";
import { TITLE_TESTED_CHARS, titlePattern } from "../../../src/config/repo/title-pattern.js";
import type { RunJob } from "../../../src/domain/run-job.js";
import { matchBranchGlob } from "../../../src/pipeline/review/match-branch-glob.js";
import { skipSummary } from "../../../src/pipeline/review/report-skip.js";
import { skipReason } from "../../../src/pipeline/review/skip-reason.js";
import { skipVerdict } from "../../../src/pipeline/review/skip-verdict.js";
import { run } from "../../rendered/fixtures.js";

const deps = { isOwnBot: async (login: string) => login === "no-mistakes[bot]" };
const push: RunJob = { runId: 7, trigger: "synchronize", senderLogin: "dev", senderType: "User" };

function config(yaml: string) {
  const parsed = parseRepoConfig(yaml);
  expect(parsed.problems).toEqual([]);
  return parsed.config;
}

describe("skipReason", () => {
  const rules = config(
    [
      "ignore:",
      "  authors: [renovate-bot]",
      "  labels: [no-review]",
      "  title: ['[skip review]', '/^wip\\b/i']",
      "  base_branches: ['release/*']",
      "  head_branches: ['dependabot/**']",
    ].join("\n"),
  );

  it.each([
    ["ignore.authors", { authorLogin: "Renovate-Bot" }],
    ["ignore.labels", { labels: ["ok", "NO-REVIEW"] }],
    ["ignore.title", { title: "Bump [skip review] please" }],
    ["ignore.title", { title: "wip: halfway" }],
    ["ignore.base_branches", { baseRef: "release/1.2" }],
    ["ignore.head_branches", { headRef: "dependabot/npm/x" }],
  ] as const)("%s skips %j; an explicit review does not", async (rule, over) => {
    const pr = run({ lastReviewedSha: null, ...over, labels: "labels" in over ? [...over.labels] : [] });
    // pushed by the PR's author (a push by someone else is theirs to review: see below)
    expect((await skipReason(deps, pr, { ...push, senderLogin: pr.authorLogin }, rules))?.rule).toBe(rule);
    expect(await skipReason(deps, pr, { ...push, trigger: "command" }, rules)).toBeUndefined();
    expect(await skipReason(deps, pr, { ...push, trigger: "rerequested" }, rules)).toBeUndefined();
  });

  it("what meets no rule is reviewed", async () => {
    const pr = run({
      title: "wipe the cache",
      labels: ["no-review-please"],
      baseRef: "release/1.2/hotfix",
      headRef: "my-dependabot/x",
    });
    expect(await skipReason(deps, pr, push, rules)).toBeUndefined();
  });

  it("the rules about the author come first; then paused, review.auto, drafts, the other ignore rules", async () => {
    const off = config("review:\n  auto: false\n");
    expect((await skipReason(deps, run({ state: "paused" }), push, off))?.rule).toBe("paused");
    expect((await skipReason(deps, run(), push, off))?.rule).toBe("review.auto");
    expect((await skipReason(deps, run({ draft: true }), push, rules))?.rule).toBe("review.drafts");
    const botPr = run({ authorLogin: "dependabot[bot]", authorType: "Bot", draft: true, state: "paused" });
    const botPush = { ...push, senderLogin: "dependabot[bot]", senderType: "Bot" };
    expect(await skipReason(deps, botPr, botPush, off)).toMatchObject({ rule: "review.bots", judgesAuthor: true });
    const ignored = run({ authorLogin: "renovate-bot", labels: ["no-review"], title: "wip: x" });
    expect(await skipReason(deps, ignored, { ...push, senderLogin: "renovate-bot" }, rules)).toMatchObject({
      rule: "ignore.authors",
      judgesAuthor: true,
    });
    expect(await skipReason(deps, run({ labels: ["no-review"] }), push, rules)).toMatchObject({ judgesAuthor: false });
  });

  it("renders the PR's text as code: a label cannot mention anyone or close the span", async () => {
    const labelled = config("ignore:\n  labels: ['@team `x`']\n");
    const skip = (await skipReason(deps, run({ labels: ["@team `x`"] }), push, labelled))!;
    const problem = { file: ".github/no-mistakes.yml", line: 3, key: "ignore.title.0", message: "boom" };
    const verdict = skipVerdict(skip, { blocking: 0, failOn: "error", lastReviewedSha: null });
    const summary = skipSummary(skip, [problem], verdict);
    expect(summary).not.toContain("@team");
    expect(summary).toContain("`` @\u200Bteam `x` ``");
    expect(summary).toContain("Comment `/no-mistakes review` on the PR to review it anyway.");
    expect(summary).toContain(
      "that setting was left out (the value below it applies): .github/no-mistakes.yml line 3: `ignore.title.0`: boom",
    );
  });
});

describe("review.bots judges the PR's author, never the sender of a push", () => {
  const rules = config("");
  const human = run({ authorLogin: "dev", authorType: "User" });
  const botPr = run({ authorLogin: "dependabot[bot]", authorType: "Bot" });
  const by = (login: string, type = "User"): RunJob => ({ ...push, senderLogin: login, senderType: type });

  it.each([
    ["a human's PR, pushed by a bot: reviewed", human, by("dependabot[bot]", "Bot"), undefined],
    ["a human's PR, opened by a bot: reviewed", human, { ...by("some-app[bot]", "Bot"), trigger: "opened" }, undefined],
    ["a bot's PR, pushed by itself: skipped", botPr, by("dependabot[bot]", "Bot"), "review.bots"],
    ["a bot's PR, opened: skipped", botPr, { ...by("dependabot[bot]", "Bot"), trigger: "opened" }, "review.bots"],
    [
      "a bot's PR, reopened by a person: reviewed (its branch may have been pushed to while closed)",
      botPr,
      { ...by("dev"), trigger: "reopened" },
      undefined,
    ],
    [
      "a bot's PR, reopened by itself: skipped",
      botPr,
      { ...by("dependabot[bot]", "Bot"), trigger: "reopened" },
      "review.bots",
    ],
    [
      "a bot's PR, marked ready by a person: skipped (the head is the bot's)",
      botPr,
      { ...by("dev"), trigger: "ready_for_review" },
      "review.bots",
    ],
    ["a bot's PR, pushed by a person: reviewed", botPr, by("dev"), undefined],
    ["a bot's PR, pushed by another bot: reviewed", botPr, by("renovate[bot]", "Bot"), undefined],
    ["a bot's PR, pushed by this app's fixer: reviewed", botPr, by("no-mistakes[bot]", "Bot"), undefined],
    [
      "a bot's PR whose head moved past the job's event (a push folded in): reviewed",
      botPr,
      { ...by("dependabot[bot]", "Bot"), headSha: "f".repeat(40) },
      undefined,
    ],
    [
      "a bot's PR, the job's event naming the newest head: skipped",
      botPr,
      { ...by("dependabot[bot]", "Bot"), headSha: botPr.headSha },
      "review.bots",
    ],
    ["a bot's PR, a command's job (no sender): skipped", botPr, { runId: 7, trigger: "synchronize" }, "review.bots"],
    [
      "a row kept before the type was: a `[bot]` login is a bot",
      run({ authorLogin: "renovate[bot]", authorType: "" }),
      by("renovate[bot]", "Bot"),
      "review.bots",
    ],
    [
      "an app with no `[bot]` in its login (GitHub's type says Bot)",
      run({ authorLogin: "Copilot", authorType: "Bot" }),
      by("Copilot", "Bot"),
      "review.bots",
    ],
    [
      "this app's own PR (not the learnings proposal): reviewed",
      run({ authorLogin: "no-mistakes[bot]", authorType: "Bot" }),
      by("no-mistakes[bot]", "Bot"),
      undefined,
    ],
  ] as const)("%s", async (_, pr, job, rule) => {
    expect((await skipReason(deps, pr, job, rules))?.rule).toBe(rule);
  });

  it("review.bots: true reviews a bot's PR", async () => {
    expect(
      await skipReason(deps, botPr, by("dependabot[bot]", "Bot"), config("review:\n  bots: true\n")),
    ).toBeUndefined();
  });

  it("ignore.authors holds for the author's own pushes only; another's push is reviewed unless another rule skips it", async () => {
    const ignore = config("ignore:\n  authors: [release-bot]\n  labels: [no-review]\n");
    const pr = run({ authorLogin: "release-bot" });
    expect((await skipReason(deps, pr, by("Release-Bot"), ignore))?.rule).toBe("ignore.authors");
    expect(await skipReason(deps, pr, by("mallory"), ignore)).toBeUndefined();
    const labelled = run({ authorLogin: "release-bot", labels: ["no-review"] });
    expect(await skipReason(deps, labelled, by("mallory"), ignore)).toMatchObject({
      rule: "ignore.labels",
      judgesAuthor: false,
    });
  });
});

describe("skipVerdict: a skipped head never reports better than the PR stands", () => {
  const author = { rule: "ignore.authors", reason: "r", judgesAuthor: true };
  const notAuthor = (rule: string) => ({ rule, reason: "r", judgesAuthor: false });
  const reviewed = "a".repeat(40);

  it.each([
    // open blocking findings: failure, whatever skipped the head, and the title says so
    [author, 1, reviewed, "failure", "Review skipped · 1 finding still open"],
    [notAuthor("ignore.title"), 2, reviewed, "failure", "Review skipped · 2 findings still open"],
    [notAuthor("review.drafts"), 1, reviewed, "failure", "Review skipped · 1 finding still open"],
    // nothing blocking: a rule that judged the author passes (neutral), reviewed before or not
    [author, 0, null, "neutral", "Review skipped"],
    [author, 0, reviewed, "neutral", "Review skipped"],
    [{ ...author, rule: "review.bots" }, 0, null, "neutral", "Review skipped"],
    [{ ...author, rule: "learnings" }, 0, null, "neutral", "Review skipped"],
    // nothing blocking, any other rule: the head is not reviewed, so it does not pass
    ...[
      "paused",
      "review.auto",
      "review.drafts",
      "ignore.labels",
      "ignore.title",
      "ignore.base_branches",
      "ignore.head_branches",
    ].flatMap(
      (rule) =>
        [
          [notAuthor(rule), 0, null, "failure", "Review skipped · not reviewed"],
          [notAuthor(rule), 0, reviewed, "failure", "Review skipped · not reviewed"],
        ] as const,
    ),
  ] as const)("%o, %i blocking, last reviewed %s → %s", (skip, blocking, last, conclusion, title) => {
    const verdict = skipVerdict(skip, { blocking, failOn: "error", lastReviewedSha: last });
    expect(verdict).toMatchObject({ conclusion, title });
  });

  it("says why the check fails or passes", () => {
    const standing = { failOn: "warning" as const, lastReviewedSha: reviewed };
    expect(skipVerdict(author, { ...standing, blocking: 2 }).detail).toBe(
      "The check still fails: 2 findings from earlier reviews are open at or above `warning` (`review.fail_on`), and skipping this head resolves nothing.",
    );
    expect(skipVerdict(notAuthor("ignore.title"), { ...standing, blocking: 0 }).detail).toBe(
      "The last review (aaaaaaa) left nothing failing, but this head is not reviewed, and `ignore.title` does not judge who wrote it: the check fails until a review passes.",
    );
    expect(skipVerdict(notAuthor("ignore.title"), { ...standing, blocking: 0, lastReviewedSha: null }).detail).toBe(
      "No review has looked at this PR yet, and `ignore.title` does not judge who wrote it: the check fails until a review passes.",
    );
    expect(skipVerdict(author, { ...standing, blocking: 0 }).detail).toBe(
      "Nothing open fails the check, and `ignore.authors` judges who wrote the PR, so the check is neutral.",
    );
  });
});

describe("the bot's own learnings proposal", () => {
  const rules = config("");
  const own = { headRef: "no-mistakes/learnings", authorLogin: "no-mistakes[bot]" };

  it("is not reviewed automatically; a writer's /no-mistakes review, or a push by a person, still reviews it", async () => {
    const pr = run({ ...own, headRepoFullName: run().repositoryFullName });
    const ownPush = { ...push, senderLogin: "no-mistakes[bot]", senderType: "Bot" };
    expect(await skipReason(deps, pr, ownPush, rules)).toMatchObject({ rule: "learnings", judgesAuthor: true });
    expect(await skipReason(deps, pr, { ...push, trigger: "command" }, rules)).toBeUndefined();
    expect(await skipReason(deps, pr, push, rules)).toBeUndefined();
  });

  it("the same branch name from a fork, or by a person, is reviewed like any PR", async () => {
    expect(await skipReason(deps, run({ ...own, headRepoFullName: "mallory/widgets" }), push, rules)).toBeUndefined();
    const byPerson = run({ ...own, authorLogin: "dev", headRepoFullName: run().repositoryFullName });
    expect(await skipReason(deps, byPerson, push, rules)).toBeUndefined();
  });
});

describe("title patterns", () => {
  it("plain text is a case-insensitive substring; /regex/flags a regular expression", () => {
    expect(titlePattern("WIP")("a wip change")).toBe(true);
    expect(titlePattern("[skip review]")("[Skip Review] x")).toBe(true);
    expect(titlePattern("[skip review]")("skip review")).toBe(false);
    expect(titlePattern("/^WIP/")("wip: x")).toBe(false);
    expect(titlePattern("/^WIP/i")("wip: x")).toBe(true);
  });

  it("tests only the first characters of a title (the author's text)", () => {
    const long = `${"x".repeat(TITLE_TESTED_CHARS)}WIP`;
    expect(titlePattern("WIP")(long)).toBe(false);
    expect(titlePattern("/WIP/")(long)).toBe(false);
  });

  it("an invalid regular expression, or a stateful flag, is a config problem", () => {
    const { problems, config } = parseRepoConfig("ignore:\n  title: ['/(a/', '/a/g', 'fine']\n");
    expect(problems).toEqual([
      expect.stringMatching(
        /^\.github\/no-mistakes\.yml line 2: `ignore\.title\.0`: not a valid regular expression: .*Unterminated group/,
      ),
      ".github/no-mistakes.yml line 2: `ignore.title.1`: not a valid regular expression: flags may be i, m, s, u or v, not `g`",
    ]);
    // a list is one setting: a bad item leaves the whole list out (its default, none, applies)
    expect(config.ignore.title).toEqual([]);
  });
});

describe("branch globs", () => {
  it.each([
    ["main", "main", true],
    ["release/*", "release/1.2", true],
    ["release/*", "release/1.2/x", false],
    ["release/**", "release/1.2/x", true],
    ["dependabot/**", "dependabot", false],
    ["v?.x", "v1.x", true],
    ["v?.x", "v1/x", false],
    ["a.b", "axb", false],
    ["feat+(x)", "feat+(x)", true],
  ] as const)("%s vs %s → %s", (glob, branch, expected) => {
    expect(matchBranchGlob(glob, branch)).toBe(expected);
  });
});
