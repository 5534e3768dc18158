import { describe, expect, it } from "vitest";
import { DEFAULT_NEXT, safeNextPath } from "../../../src/web/auth/safe-next-path.js";

const APP = "https://review.example.com";

/** Where a browser on the app's /login page lands for a Location header (WHATWG URL: tabs and newlines dropped, "\" read as "/"). */
const landsOn = (location: string) => new URL(location, `${APP}/login?next=x`);

/** Dot segments, in every spelling the URL parser reads as one. */
const DOTS = [".", "..", "%2e", "%2E", "%2e%2e", ".%2e", "%2e.", "%2E%2e"];
/** What may follow a dot segment to make the rest start with two slashes (or their look-alikes). */
const TAILS = [
  "//evil.example",
  "/\\evil.example",
  "//evil.example/repos?x=1#y",
  "/%2f/evil.example",
  "/%5c/evil.example",
];

describe("safeNextPath", () => {
  it.each([
    ["/runs/7", "/runs/7"],
    ["/repos/octo-org/widgets?state=open#top", "/repos/octo-org/widgets?state=open#top"],
    ["/a/../b", "/b"],
    ["/", "/"],
    ["/%2f/evil.example", "/%2f/evil.example"], // one segment named "/": a path here, not a host
    ["/%5cevil.example", "/%5cevil.example"],
    ["/a//b", "/a//b"],
    ["/./%2e/x", "/x"],
  ])("keeps the same-site path %j as %j", (next, kept) => {
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
    "/\r/evil.com",
    "/" + "a".repeat(3000),
    // what the URL parser makes of dot segments: these resolve to "//evil.example"
    "/.//evil.example",
    "/..//evil.example",
    "/a/..//evil.example",
    "/a/b/../..//evil.example",
    "/%2e//evil.example",
    "/%2E%2E//evil.example",
    "/a/.%2e//evil.example",
    "/;/..//evil.example",
    "/./\\evil.example",
    "/.\t//evil.example",
  ])("refuses %j for DEFAULT_NEXT", (next) => {
    expect(safeNextPath(next)).toBe(DEFAULT_NEXT);
  });

  // Every dot-segment spelling before every tail, one to three deep: the returned text itself, read by a
  // browser, stays on the app (the raw text passing a check is not enough).
  const forms = DOTS.flatMap((dot) =>
    TAILS.flatMap((tail) => [
      `/${dot}${tail}`,
      `/a/${dot}${tail}`,
      `/a/b/${dot}/${dot}${tail}`,
      `/${dot}/${dot}${tail}`,
    ]),
  );
  it.each(forms)("returns a Location that stays on the app for %j", (next) => {
    const location = safeNextPath(next);
    expect(location.startsWith("/")).toBe(true);
    expect(location).not.toMatch(/^\/[/\\]/);
    expect(location).not.toMatch(/[\\\u0000-\u0020\u007f]/);
    expect(landsOn(location).origin).toBe(APP);
    expect(safeNextPath(location)).toBe(location); // already what the browser will read: nothing left to normalise
  });
});
