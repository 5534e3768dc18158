import { describe, expect, it } from "vitest";
import { safeUrl } from "../../../src/web/pages/safe-url.js";

describe("safeUrl", () => {
  it.each([
    ["https://github.com/o/r/pull/1#discussion_r2", "https://github.com/o/r/pull/1#discussion_r2"],
    ["HTTP://example.com/", "HTTP://example.com/"],
    ["/repos/o/r?state=open&page=2", "/repos/o/r?state=open&amp;page=2"],
    ["#NM-3", "#NM-3"],
    ["?page=2", "?page=2"],
    ["pull/3", "pull/3"],
    ["/q?x=%22%3E", "/q?x=%22%3E"],
  ])("allows %j", (url, markup) => {
    expect(safeUrl(url)?.markup).toBe(markup);
    expect(safeUrl(url)?.kind).toBe("url");
  });

  it.each([
    "javascript:alert(1)",
    "JAVASCRIPT:alert(1)",
    " javascript:alert(1)",
    "java\tscript:alert(1)",
    "java\nscript:alert(1)",
    "\u0000javascript:alert(1)",
    "data:text/html;base64,PHNjcmlwdD4=",
    "vbscript:x",
    "file:///etc/passwd",
    "mailto:a@b.c",
    "//evil.example/",
    "/\\evil.example/",
    "https://exa mple.com/",
    "https://",
    "a:b",
    "",
  ])("refuses %j", (url) => {
    expect(safeUrl(url)).toBeUndefined();
  });
});
