import { describe, expect, it } from "vitest";
import { DEFAULT_REPO_CONFIG, parseRepoConfig } from "../../../src/config/repo/repo-config.js";

describe("repository config", () => {
  it("bounds a PR's spend by default: 30 agent turns and $5", () => {
    expect(DEFAULT_REPO_CONFIG.limits).toEqual({ max_turns: 30, max_cost_usd: 5 });
    expect(parseRepoConfig("review:\n  auto: true\n").config.limits).toEqual({ max_turns: 30, max_cost_usd: 5 });
  });

  it("takes the repository's own limits, and refuses nonsense with the defaults kept", () => {
    expect(parseRepoConfig("limits:\n  max_turns: 100\n  max_cost_usd: 20\n").config.limits).toEqual({
      max_turns: 100,
      max_cost_usd: 20,
    });
    const bad = parseRepoConfig("limits:\n  max_turns: 0\n");
    expect(bad.config.limits).toEqual({ max_turns: 30, max_cost_usd: 5 });
    expect(bad.problems).toEqual([
      ".github/no-mistakes.yml line 2: `limits.max_turns`: Too small: expected number to be >=1",
    ]);
  });
});
