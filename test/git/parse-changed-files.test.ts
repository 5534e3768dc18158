import { describe, expect, it } from "vitest";
import { parseChangedFiles } from "../../src/git/parse-changed-files.js";

describe("parseChangedFiles", () => {
  it("joins numstat and name-status, renames and binaries included", () => {
    const numstat = ["3\t1\tsrc/a.ts", "0\t5\told.txt", "2\t0\t", "lib/from.ts", "lib/to.ts", "-\t-\timg.png", ""].join(
      "\0",
    );
    const nameStatus = ["M", "src/a.ts", "D", "old.txt", "R087", "lib/from.ts", "lib/to.ts", "A", "img.png", ""].join(
      "\0",
    );
    expect(parseChangedFiles(numstat, nameStatus)).toEqual([
      { path: "src/a.ts", status: "modified", additions: 3, deletions: 1 },
      { path: "old.txt", status: "deleted", additions: 0, deletions: 5 },
      { path: "lib/to.ts", oldPath: "lib/from.ts", status: "renamed", additions: 2, deletions: 0 },
      { path: "img.png", status: "added", additions: 0, deletions: 0, binary: true },
    ]);
  });

  it("keeps paths with tabs and newlines intact", () => {
    const numstat = "1\t0\tweird\tname\nx\0";
    const nameStatus = "A\0weird\tname\nx\0";
    expect(parseChangedFiles(numstat, nameStatus)).toEqual([
      { path: "weird\tname\nx", status: "added", additions: 1, deletions: 0 },
    ]);
  });

  it("returns nothing for no changes", () => {
    expect(parseChangedFiles("", "")).toEqual([]);
  });
});
