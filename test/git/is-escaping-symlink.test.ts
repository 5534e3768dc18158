import { describe, expect, it } from "vitest";
import { isEscapingSymlink } from "../../src/git/is-escaping-symlink.js";

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
