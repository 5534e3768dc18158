import { describe, expect, it } from "vitest";
import { parseRepoConfig } from "../../../src/config/repo/repo-config.js";
import { titlePattern } from "../../../src/config/repo/title-pattern.js";
import { callWithDeadline } from "../../helpers/call-with-deadline.js";

/** Far beyond what the linear engine needs (well under a second), far below what backtracking takes (hours). */
const DEADLINE_MS = 30_000;

describe("ignore.title regular expressions run in time linear in the title", () => {
  it.each([
    ["/(a+)+$/", `${"a".repeat(41)}!`],
    ["/^(\\w+\\s?)+$/i", `${"word ".repeat(40)}!`],
    ["/(x+x+)+y/", "x".repeat(256)],
  ])(
    "%s on a hostile title finishes, unmatched",
    async (pattern, title) => {
      expect(
        await callWithDeadline("src/config/repo/title-pattern.ts", "titlePattern", [[pattern], [title]], DEADLINE_MS),
      ).toEqual({ value: false });
    },
    2 * DEADLINE_MS,
  );

  it("keeps the answers teams rely on", () => {
    expect(titlePattern("/^(wip|draft)\\b/i")("WIP: halfway")).toBe(true);
    expect(titlePattern("/^(wip|draft)\\b/i")("wipe the cache")).toBe(false);
    expect(titlePattern("/\\[skip (review|ci)\\]$/")("Bump x [skip ci]")).toBe(true);
    expect(
      titlePattern("/^chore\\(deps(-dev)?\\): bump .+ from \\d+\\.\\d+/")("chore(deps-dev): bump a from 1.2 to 1.3"),
    ).toBe(true);
  });

  it("a pattern that needs backtracking is a config problem saying why, and the list is left out", () => {
    const yaml = "ignore:\n  title: ['/(a)\\1/', '/^(?!feat)/', '/(?<=x)y/', '/(a{100}){51}/']\n";
    const { problems, config } = parseRepoConfig(yaml);
    const why = "not supported in a title pattern, which runs in time linear in the title:";
    expect(problems).toEqual([
      `.github/no-mistakes.yml line 2: \`ignore.title.0\`: ${why} a backreference (\`\\1\`)`,
      `.github/no-mistakes.yml line 2: \`ignore.title.1\`: ${why} lookahead \`(?!\``,
      `.github/no-mistakes.yml line 2: \`ignore.title.2\`: ${why} lookbehind \`(?<=\``,
      `.github/no-mistakes.yml line 2: \`ignore.title.3\`: ${why} more than 5000 steps once its counted repetitions are written out`,
    ]);
    expect(config.ignore.title).toEqual([]);
  });
});
