import { describe, expect, it } from "vitest";
import { withExtraInstructions } from "../../../src/backtest/configurations/with-extra-instructions.js";
import { parseRepoConfig } from "../../../src/config/repo/repo-config.js";

/** What the app reads from the text: its review settings and any problem. */
const read = (text: string) => {
  const { config, problems } = parseRepoConfig(text);
  return { instructions: config.review.instructions, maxComments: config.review.max_comments, problems };
};

describe("withExtraInstructions", () => {
  it.each([
    {
      name: "no config: the instructions alone",
      config: undefined,
      out: { instructions: "Flag every unchecked index.", maxComments: 20, problems: [] },
    },
    {
      name: "a config without instructions: set, the rest kept",
      config: "review:\n  max_comments: 5\nfix:\n  auto: true\n",
      out: { instructions: "Flag every unchecked index.", maxComments: 5, problems: [] },
    },
    {
      name: "the team's own instructions: the extra ones after them",
      config: "# the team's rules\nreview:\n  instructions: |\n    Be brief.\n  max_comments: 7\n",
      out: { instructions: "Be brief.\n\nFlag every unchecked index.", maxComments: 7, problems: [] },
    },
    {
      name: "an empty review: set",
      config: "review:\n",
      out: { instructions: "Flag every unchecked index.", maxComments: 20, problems: [] },
    },
  ])("$name", ({ config, out }) => {
    const text = withExtraInstructions(config, "  Flag every unchecked index.\n", "variant.md");
    expect(read(text)).toEqual(out);
    if (config?.startsWith("#")) expect(text).toContain("# the team's rules");
  });

  it.each([
    ["review: [1, 2\n", /^variant\.md: the \.github\/no-mistakes\.yml they go into does not parse: /],
    [
      "review: true\n",
      /^variant\.md: the \.github\/no-mistakes\.yml they go into has a `review` that is not a mapping/,
    ],
  ])("refuses a config the instructions cannot go into: %j", (config, error) => {
    expect(() => withExtraInstructions(config, "More.", "variant.md")).toThrow(error);
  });

  it("refuses what the app would not take (past review.instructions' 8000 characters), and an empty file", () => {
    expect(() => withExtraInstructions("review:\n  instructions: short\n", "x".repeat(8000), "long.md")).toThrow(
      /^long\.md: the app would not take these instructions: .*review\.instructions/,
    );
    expect(() => withExtraInstructions(undefined, " \n", "empty.md")).toThrow(/^empty\.md: no instructions in it/);
  });
});
