import { describe, expect, it } from "vitest";
import { normalizePath } from "../../../src/pipeline/ledger/normalize-path.js";

describe("normalizePath", () => {
  it.each<[string, string | undefined, string | undefined]>([
    ["src/a.ts", undefined, "src/a.ts"],
    ["./src/a.ts", undefined, "src/a.ts"],
    ["././src/a.ts", undefined, "src/a.ts"],
    ["a/src/a.ts", undefined, "src/a.ts"],
    ["b/src/a.ts", undefined, "src/a.ts"],
    ["./b/src/a.ts", undefined, "src/a.ts"],
    ["b/b/x.ts", undefined, "b/x.ts"],
    ["ab/x.ts", undefined, "ab/x.ts"],
    ["src//a.ts", undefined, "src/a.ts"],
    ["src/./a.ts", undefined, "src/a.ts"],
    ["src/lib/../a.ts", undefined, "src/a.ts"],
    ["  src/a.ts  ", undefined, "src/a.ts"],
    ["src/", undefined, "src"],
    ["README", undefined, "README"],
    ["~notes.md", undefined, "~notes.md"],
    ["..foo/x.ts", undefined, "..foo/x.ts"],
    // escaping the repository
    ["../x.ts", undefined, undefined],
    ["src/../../x.ts", undefined, undefined],
    ["./../x.ts", undefined, undefined],
    ["a/../../x.ts", undefined, undefined],
    // absolute paths
    ["/etc/passwd", undefined, undefined],
    ["/etc/passwd", "/work/ws/run-1", undefined],
    ["~/x.ts", undefined, undefined],
    ["C:\\repo\\x.ts", undefined, undefined],
    ["C:/repo/x.ts", undefined, undefined],
    ["\\\\server\\share\\x.ts", undefined, undefined],
    ["/work/ws/run-1/src/a.ts", "/work/ws/run-1", "src/a.ts"],
    ["/work/ws/run-1/src/a.ts", "/work/ws/run-1/", "src/a.ts"],
    ["/work/ws/run-10/src/a.ts", "/work/ws/run-1", undefined],
    ["/work/ws/run-1/../run-2/x.ts", "/work/ws/run-1", undefined],
    ["/work/ws/run-1", "/work/ws/run-1", undefined],
    // nothing left
    ["", undefined, undefined],
    ["   ", undefined, undefined],
    [".", undefined, undefined],
    ["./", undefined, undefined],
    ["src/..", undefined, undefined],
    ["src/a\0.ts", undefined, undefined],
  ])("normalizePath(%j, %j) → %j", (path, root, expected) => {
    expect(normalizePath(path, root)).toBe(expected);
  });
});
