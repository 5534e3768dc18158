import { describe, expect, it } from "vitest";
import { classToken } from "../../../src/web/pages/class-token.js";
import { formatCount } from "../../../src/web/pages/format-count.js";
import { formatDuration } from "../../../src/web/pages/format-duration.js";
import { formatUsd } from "../../../src/web/pages/format-usd.js";
import { githubRepositoryUrl } from "../../../src/web/pages/github-repository-url.js";
import { sitePath } from "../../../src/web/pages/site-path.js";
import { truncateText } from "../../../src/web/pages/truncate-text.js";

const at = (ms: number) => new Date(Date.UTC(2026, 11, 4) + ms);

describe("the pages' formatters", () => {
  it.each([
    [0, "$0.0000"],
    [0.0123, "$0.0123"],
    [0.012345, "$0.0123"],
    [12.5, "$12.5000"],
    [Number.NaN, "$0.0000"],
  ])("formatUsd(%j) is %s", (usd, shown) => expect(formatUsd(usd)).toBe(shown));

  it.each([
    [0, "0"],
    [999, "999"],
    [1_234, "1,234"],
    [1_234_567, "1,234,567"],
  ])("formatCount(%j) is %s", (n, shown) => expect(formatCount(n)).toBe(shown));

  it.each([
    [850, "850 ms"],
    [42_000, "42 s"],
    [185_000, "3 m 05 s"],
    [3_720_000, "1 h 02 m"],
  ])("formatDuration over %j ms is %s", (ms, shown) => expect(formatDuration(at(0), at(ms))).toBe(shown));

  it("says running without an end", () => expect(formatDuration(at(0), null)).toBe("running"));

  it("truncateText keeps short text and cuts long text with a count of what it left out", () => {
    expect(truncateText("short", 10)).toBe("short");
    expect(truncateText("abcdefghij", 4)).toBe("abcd\n… (6 more characters)");
  });

  it("truncateText never splits a surrogate pair", () => {
    expect(truncateText("ab😀cd", 3)).toBe("ab\n… (4 more characters)");
  });

  it.each([
    ["open", "open"],
    ["fix-pushed", "fix-pushed"],
    ["Failed", "failed"],
    ['x" onclick="y', "xonclicky"],
  ])("classToken(%j) is %j", (value, token) => expect(classToken(value)).toBe(token));

  it("encodes each segment of a repository's paths on this site and on GitHub", () => {
    expect(sitePath("o/a b")).toBe("/repos/o/a%20b");
    expect(sitePath("o/r", 12)).toBe("/repos/o/r/pull/12");
    expect(githubRepositoryUrl("https://github.com/", "o/r?x")).toBe("https://github.com/o/r%3Fx");
    expect(githubRepositoryUrl("https://ghe.example.com", "o/r")).toBe("https://ghe.example.com/o/r");
  });
});
