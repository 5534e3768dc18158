import { describe, expect, it } from "vitest";
import { z } from "zod";
import { configIssueMessage } from "../../../src/config/repo/config-issue-message.js";
import { parseExtendsTarget } from "../../../src/config/repo/extends-target.js";
import { mergeConfigLayers } from "../../../src/config/repo/merge-config-layers.js";
import { DEFAULT_REPO_CONFIG, parseRepoConfig, settleRepoConfigLayer } from "../../../src/config/repo/repo-config.js";

describe("a config file checked on its own", () => {
  it("a syntax error is reported with its line, and none of the file is used", () => {
    const { config, problems } = parseRepoConfig("review:\n  auto: false\nfix:\n  max_rounds: [1, 2\n");
    expect(config).toEqual(DEFAULT_REPO_CONFIG);
    expect(problems).toEqual([
      expect.stringMatching(/^\.github\/no-mistakes\.yml line 5: not valid YAML, so none of this file is used: .*\]/),
    ]);
  });

  it("a duplicate key is a syntax error on the line of the second one", () => {
    expect(parseRepoConfig("fix:\n  auto: true\nfix:\n  auto: false\n").problems).toEqual([
      ".github/no-mistakes.yml line 3: not valid YAML, so none of this file is used: Map keys must be unique",
    ]);
  });

  it("a wrong type at a nested key leaves out that setting alone; the rest of the file applies", () => {
    const text = [
      "# the team's settings",
      "review:",
      "  auto: false",
      "  max_comments: lots",
      "  fail_on: warning",
      "fix:",
      "  max_rounds: 2",
      "limits:",
      "  max_turns: 0",
      "",
    ].join("\n");
    const { config, problems } = parseRepoConfig(text);
    expect(problems).toEqual([
      ".github/no-mistakes.yml line 4: `review.max_comments`: Invalid input: expected number, received string",
      ".github/no-mistakes.yml line 9: `limits.max_turns`: Too small: expected number to be >=1",
    ]);
    expect(config.review).toMatchObject({ auto: false, max_comments: 20, fail_on: "warning" });
    expect(config.fix.max_rounds).toBe(2);
    expect(config.limits.max_turns).toBe(30);
  });

  it("an unknown key is named on its own line; a bad list item leaves that list at its default", () => {
    const text =
      "review:\n  auto: false\n  sesion: cold\nignore:\n  authors:\n    - dependabot\n    - ''\n  labels: [wip]\n";
    const { config, problems } = parseRepoConfig(text);
    expect(problems).toEqual([
      ".github/no-mistakes.yml line 3: `review.sesion`: unknown key",
      ".github/no-mistakes.yml line 7: `ignore.authors.1`: Too small: expected string to have >=1 characters",
    ]);
    expect(config.review.auto).toBe(false);
    expect(config.ignore.authors).toEqual([]);
    expect(config.ignore.labels).toEqual(["wip"]);
  });

  it("a file that is not a mapping is reported and left out", () => {
    expect(parseRepoConfig("- review\n- fix\n").problems).toEqual([
      ".github/no-mistakes.yml line 1: the file should be a mapping of settings (`review:`, `fix:`, …), so none of it is used",
    ]);
    expect(parseRepoConfig("# nothing yet\n")).toEqual({ config: DEFAULT_REPO_CONFIG, problems: [] });
  });

  it("names another repository's file as problems say it, and takes `_extends` out with its line", () => {
    const layer = settleRepoConfigLayer(
      "review:\n  max_comments: 500\n_extends: shared\n",
      "acme/.github:.github/no-mistakes.yml",
    );
    expect(layer.extends).toEqual({ target: "shared", line: 3 });
    expect(layer.settings).toEqual({ review: {} });
    expect(layer.problems).toEqual([
      {
        file: "acme/.github:.github/no-mistakes.yml",
        line: 2,
        key: "review.max_comments",
        message: "Too big: expected number to be <=100",
      },
    ]);
  });
});

describe("what a problem says", () => {
  it.each([
    ["review:\n  session: warm\n", "`review.session`: expected one of: resume, cold"],
    ["review:\n  session: 3\n", "`review.session`: expected one of: resume, cold"],
    // a severity or `never`: zod alone says only "Invalid input" for a union
    ["review:\n  fail_on: critical\n", "`review.fail_on`: expected one of: error, warning, info, never"],
    ["review:\n  fail_on: [error]\n", "`review.fail_on`: expected one of: error, warning, info, never"],
    // not a choice among values: zod's own words
    ["review:\n  auto: 'yes'\n", "`review.auto`: Invalid input: expected boolean, received string"],
    ["review:\n  max_comments: 500\n", "`review.max_comments`: Too big: expected number to be <=100"],
    ["fix:\n  rounds: 1\n", "`fix.rounds`: unknown key"],
  ])("%j → %s", (text, said) => {
    expect(parseRepoConfig(text).problems).toEqual([`.github/no-mistakes.yml line 2: ${said}`]);
  });

  it.each([
    [z.union([z.number(), z.literal("never")]), "x", "expected a number or never"],
    [z.union([z.number(), z.boolean()]), "x", "expected a number or a boolean"],
    [z.literal("on"), "off", "expected on"],
    [z.union([z.enum(["a", "b"]), z.enum(["c"]), z.literal(1)]), "x", "expected one of: a, b, c, 1"],
  ] as const)("a setting of several forms: %#", (schema, input, said) => {
    const issue = schema.safeParse(input).error!.issues[0]!;
    expect(configIssueMessage(issue)).toBe(said);
  });

  it("a union whose option fails inside an object keeps zod's words", () => {
    const schema = z.union([z.object({ path: z.string() }), z.literal("none")]);
    const issue = schema.safeParse({ path: 3 }).error!.issues[0]!;
    expect(configIssueMessage(issue)).toBe(issue.message);
  });
});

describe("config files merged", () => {
  it("mappings merge, lists and values of the nearer file replace; each setting names its file", () => {
    const { merged, provenance } = mergeConfigLayers([
      {
        source: "acme/.github",
        settings: { review: { auto: false, max_comments: 5 }, ignore: { labels: ["wip", "draft"] } },
      },
      { source: "acme/widgets", settings: { review: { max_comments: 10 }, ignore: { labels: ["skip"] } } },
    ]);
    expect(merged).toEqual({ review: { auto: false, max_comments: 10 }, ignore: { labels: ["skip"] } });
    expect(provenance).toEqual({
      "review.auto": "acme/.github",
      "review.max_comments": "acme/widgets",
      "ignore.labels": "acme/widgets",
    });
  });
});

describe("_extends targets", () => {
  it("takes Probot's forms; a bare name is the naming file's owner's", () => {
    expect(parseExtendsTarget("shared", "acme")).toEqual({
      owner: "acme",
      repo: "shared",
      path: ".github/no-mistakes.yml",
    });
    expect(parseExtendsTarget("other/.github", "acme")).toEqual({
      owner: "other",
      repo: ".github",
      path: ".github/no-mistakes.yml",
    });
    expect(parseExtendsTarget("other/cfg:review/base.yaml", "acme")).toEqual({
      owner: "other",
      repo: "cfg",
      path: "review/base.yaml",
    });
    for (const bad of ["a/b/c", "acme/..", "acme/x:../secret.yml", "acme/x:notes.txt", "two words"])
      expect(parseExtendsTarget(bad, "acme"), bad).toBeUndefined();
  });
});
