import { describe, expect, it } from "vitest";
import { isEscapingSymlink, symlinkEscape } from "../../src/git/is-escaping-symlink.js";

describe("isEscapingSymlink", () => {
  it.each([
    // [link path, target, escapes]
    ["docs/current", "v1.md", false],
    ["docs/current", "../README.md", false],
    ["a/b/c", "../../x/y", false],
    ["a/b/c", "./d/../e", false],
    ["link", "sub/dir", false],
    ["link", "/etc/passwd", true],
    ["link", "/app/.env", true],
    ["link", "..", true],
    ["link", "../outside", true],
    ["a/b/c", "../../../x", true],
    ["a/link", "b/../../../x", true],
    ["link", ".git/config", true],
    ["a/link", "../.git/hooks", true],
    ["link", "C:\\\\Windows", true],
    ["link", "\\\\server\\\\share", true],
    ["a/link", "..\\\\..\\\\x", true],
    ["link", "", true],
  ])("%s → %s escapes: %s", (path, target, escapes) => {
    expect(isEscapingSymlink(path, target)).toBe(escapes);
  });
});

describe("symlinkEscape (the chain, followed through the tree's links)", () => {
  const tree = (entries: Record<string, string>) => new Map(Object.entries(entries));
  it.each([
    ["c", { "a/b": "..", c: "a/b/../outside" }, "outside"],
    ["c", { "a/b": "..", c: "a/b/inside" }, undefined],
    ["x", { x: "y", y: "../z" }, "outside"],
    ["x", { x: "y", y: "x" }, "cycle"],
    ["x", { x: "x" }, "cycle"],
    ["x", { x: "x/y" }, "cycle"],
    ["d/l", { "d/l": "../e/f", e: "/etc" }, "outside"],
    ["l", { l: "sub/.GIT/config" }, "outside"],
    ["docs/latest", { "docs/latest": "./current", "docs/current": "v1.md" }, undefined],
  ])("%s in %j: %s", (path, links, escape) => {
    expect(symlinkEscape(path, tree(links))).toBe(escape);
  });
});
