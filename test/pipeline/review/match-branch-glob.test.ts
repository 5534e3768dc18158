import { describe, expect, it } from "vitest";
import { matchBranchGlob } from "../../../src/pipeline/review/match-branch-glob.js";
import { callWithDeadline } from "../../helpers/call-with-deadline.js";

/** Far beyond what the linear matcher needs, far below what backtracking takes on this name. */
const DEADLINE_MS = 30_000;

describe("matchBranchGlob", () => {
  it.each([
    ["renovate/**", "renovate/npm-x-1.x", true],
    ["feature/*/wip", "feature/a/wip", true],
    ["feature/*/wip", "feature/a/b/wip", false],
    ["**-hotfix", "release/1.2-hotfix", true],
    ["[main]", "[main]", true],
    ["[main]", "m", false],
    ["{a,b}", "{a,b}", true],
    ["a\\b", "a\\b", true],
  ])("%s vs %s → %s", (glob, branch, expected) => {
    expect(matchBranchGlob(glob, branch)).toBe(expected);
  });

  it(
    "a glob of many ** on a long branch name finishes, unmatched",
    async () => {
      const branch = "a".repeat(250);
      expect(
        await callWithDeadline(
          "src/pipeline/review/match-branch-glob.ts",
          "matchBranchGlob",
          [["**a**a**a**a**a**a**b", branch]],
          DEADLINE_MS,
        ),
      ).toEqual({ value: false });
    },
    2 * DEADLINE_MS,
  );
});
