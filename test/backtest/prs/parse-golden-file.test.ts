import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseGoldenFile } from "../../../src/backtest/prs/parse-golden-file.js";
import { parsePairsFile } from "../../../src/backtest/prs/parse-pairs-file.js";
import { parsePrKey } from "../../../src/backtest/prs/pr-key.js";
import { GOLDEN_FIXTURE } from "../backtest-world.js";

describe("parseGoldenFile", () => {
  it("reads the public benchmark's shape as is: PR URL, title, comments with comment and severity", () => {
    const prs = parseGoldenFile(JSON.parse(readFileSync(GOLDEN_FIXTURE, "utf8")));
    expect(prs.map((p) => [p.key.repo, p.key.number, p.title, p.issues.length])).toEqual([
      ["ai-code-review-evaluation/widgets-eval", 1, "Add parser", 2],
      ["ai-code-review-evaluation/widgets-eval", 2, "Add cache", 2],
      ["ai-code-review-evaluation/widgets-eval", 3, "Add logger", 1],
    ]);
    expect(prs[1]!.issues[1]).toEqual({ comment: "Cached entries never expire.", severity: "medium" });
  });

  it("reads a team's own set keyed by PR (number, URL or base..head), with path and line", () => {
    const prs = parseGoldenFile({
      "12": [{ comment: "Leaks a file handle", severity: "error", path: "src/a.ts", line: 40 }],
      "https://ghe.example.com/acme/api/pull/7": { comments: [{ comment: "No retry on 503" }] },
      "main~3..feature/x": [{ comment: "Wrong unit", severity: "Warning" }],
    });
    expect(prs.map((p) => p.key)).toEqual([
      { text: "12", number: 12 },
      { text: "https://ghe.example.com/acme/api/pull/7", repo: "acme/api", number: 7 },
      { text: "main~3..feature/x", base: "main~3", head: "feature/x" },
    ]);
    expect(prs.map((p) => p.issues)).toEqual([
      [{ comment: "Leaks a file handle", severity: "error", path: "src/a.ts", line: 40 }],
      [{ comment: "No retry on 503", severity: "unspecified" }],
      [{ comment: "Wrong unit", severity: "warning" }],
    ]);
  });

  it("takes a null line or path as none: GitHub's outdated review comments have `line: null`", () => {
    // What `gh api repos/O/R/pulls/12/comments` gives for an outdated comment and a file-level one, mapped as is.
    const prs = parseGoldenFile({
      "12": [
        { comment: "Off by one", severity: "high", path: "src/a.ts", line: null },
        { comment: "Whole file is generated", path: null, line: null },
      ],
    });
    expect(prs[0]!.issues).toEqual([
      { comment: "Off by one", severity: "high", path: "src/a.ts" },
      { comment: "Whole file is generated", severity: "unspecified" },
    ]);
  });

  it("reads entries named by number or by base and head, in an array", () => {
    const prs = parseGoldenFile([
      { number: 5, comments: [] },
      { base: "abc123", head: "def456", comments: [{ body: "said as body", severity: "low" }] },
    ]);
    expect(prs.map((p) => p.key.text)).toEqual(["5", "abc123..def456"]);
    expect(prs[1]!.issues).toEqual([{ comment: "said as body", severity: "low" }]);
  });

  it("keeps the benchmark's own flag on a PR (`az_comment`), and only a flag that says something", () => {
    const prs = parseGoldenFile([
      {
        url: "https://github.com/o/r/pull/1",
        az_comment: "there is no such PR, it is a mix of many PRs",
        comments: [],
      },
      { url: "https://github.com/o/r/pull/2", az_comment: null, comments: [] },
      { url: "https://github.com/o/r/pull/3", az_comment: " ", comments: [] },
    ]);
    expect(prs.map((p) => p.flag)).toEqual(["there is no such PR, it is a mix of many PRs", undefined, undefined]);
  });

  it("reports every mistake at once, with where it is", () => {
    expect(() =>
      parseGoldenFile(
        [{ url: "https://github.com/o/r/issues/3", comments: [] }, { comments: [{ severity: "High" }] }, { pr: 1 }],
        "g.json",
      ),
    ).toThrow(
      /g\.json:\n {2}\[0\]: not a pull request key.*issues\/3.*\n {2}\[1\]\.comments\.0: an issue needs `comment`\n {2}\[2\]\.comments: /s,
    );
    expect(() => parseGoldenFile("nope")).toThrow(/expected an array of pull requests/);
  });
});

describe("parsePrKey", () => {
  it.each([
    [3, { text: "3", number: 3 }],
    ["#41", { text: "#41", number: 41 }],
    ["https://github.com/o/r/pull/9/", { text: "https://github.com/o/r/pull/9/", repo: "o/r", number: 9 }],
    ["v1.2..v1.3", { text: "v1.2..v1.3", base: "v1.2", head: "v1.3" }],
  ])("%j", (value, key) => expect(parsePrKey(value)).toEqual(key));

  it.each([0, "0", "a...b", "https://github.com/o/r/commit/abc", null])("refuses %j", (value) =>
    expect(() => parsePrKey(value)).toThrow(/not a pull request key/),
  );
});

describe("parsePairsFile", () => {
  it("reads base, head and an optional PR key and title", () => {
    expect(
      parsePairsFile([
        { base: "main", head: "f", pr: "#4", title: "T" },
        { base: "a", head: "b" },
      ]),
    ).toEqual([
      { base: "main", head: "f", key: { text: "#4", number: 4 }, title: "T" },
      { base: "a", head: "b" },
    ]);
  });
  it("refuses what is not a pair", () => {
    expect(() => parsePairsFile([{ base: "a" }, { base: "a", head: "b", extra: 1 }])).toThrow(
      /\[0\]\.head: .*\n {2}\[1\]: /s,
    );
  });
});
