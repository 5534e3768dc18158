import { describe, expect, it } from "vitest";
import { DEFAULT_NEXT, safeNextPath } from "../../../src/web/auth/safe-next-path.js";

describe("safeNextPath", () => {
  it.each([
    ["/runs/7", "/runs/7"],
    ["/repos/octo-org/widgets?state=open#top", "/repos/octo-org/widgets?state=open#top"],
    ["/a/../b", "/b"],
    ["/", "/"],
  ])("keeps the same-site path %j", (next, kept) => {
    expect(safeNextPath(next)).toBe(kept);
  });

  it.each([
    undefined,
    null,
    "",
    "//evil.com",
    "//evil.com/repos",
    "https://evil.com",
    "http:evil.com",
    "/\\evil.com",
    "\\\\evil.com",
    "/\\/evil.com",
    "/%5Cevil.com/../x".replace("%5C", "\\"),
    "javascript:alert(1)",
    "repos",
    "/ /evil.com",
    "/\t/evil.com",
    "/\n/evil.com",
    "/" + "a".repeat(3000),
  ])("refuses %j for DEFAULT_NEXT", (next) => {
    expect(safeNextPath(next)).toBe(DEFAULT_NEXT);
  });
});
