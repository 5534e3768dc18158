import { describe, expect, it } from "vitest";
import { parseRepoConfig } from "../../../src/config/repo-config.js";
import { TITLE_TESTED_CHARS, titlePattern } from "../../../src/config/title-pattern.js";
import type { RunJob } from "../../../src/domain/run-job.js";
import { matchBranchGlob } from "../../../src/pipeline/review/match-branch-glob.js";
import { skipSummary } from "../../../src/pipeline/review/report-skip.js";
import { skipReason } from "../../../src/pipeline/review/skip-reason.js";
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
    expect((await skipReason(deps, pr, push, rules))?.rule).toBe(rule);
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

  it("the existing skips keep their order: paused, review.auto, drafts, other bots", async () => {
    const off = config("review:\n  auto: false\n");
    expect((await skipReason(deps, run({ state: "paused" }), push, off))?.rule).toBe("paused");
    expect((await skipReason(deps, run(), push, off))?.rule).toBe("review.auto");
    expect((await skipReason(deps, run({ draft: true }), push, rules))?.rule).toBe("review.drafts");
    const bot = { ...push, senderLogin: "dependabot[bot]", senderType: "Bot" };
    expect((await skipReason(deps, run(), bot, rules))?.rule).toBe("review.bots");
    expect(await skipReason(deps, run(), { ...bot, senderLogin: "no-mistakes[bot]" }, rules)).toBeUndefined();
  });

  it("renders the PR's text as code: a label cannot mention anyone or close the span", async () => {
    const labelled = config("ignore:\n  labels: ['@team `x`']\n");
    const skip = (await skipReason(deps, run({ labels: ["@team `x`"] }), push, labelled))!;
    const summary = skipSummary(skip, ["ignore.title.0: not a valid regular expression: boom"]);
    expect(summary).not.toContain("@team");
    expect(summary).toContain("`` @\u200Bteam `x` ``");
    expect(summary).toContain("Comment `/no-mistakes review` on the PR to review it anyway.");
    expect(summary).toContain(
      "that setting was left out (the value below it applies): ignore.title.0: not a valid regular expression: boom",
    );
  });
});

describe("the bot's own learnings proposal", () => {
  const rules = config("");
  const own = { headRef: "no-mistakes/learnings", authorLogin: "no-mistakes[bot]" };

  it("is not reviewed automatically; a writer's /no-mistakes review still reviews it", async () => {
    const pr = run({ ...own, headRepoFullName: run().repositoryFullName });
    expect((await skipReason(deps, pr, push, rules))?.rule).toBe("learnings");
    expect(await skipReason(deps, pr, { ...push, trigger: "command" }, rules)).toBeUndefined();
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
