import { describe, expect, it } from "vitest";
import { hunkContaining, parseDiff } from "../../src/github/parse-diff.js";
import type { DiffFile, DiffFileStatus } from "../../src/github/parse-diff.js";

/** Builds a diff from lines, so significant leading/trailing spaces and tabs stay visible. */
const diff = (...lines: string[]): string => `${lines.join("\n")}\n`;

interface ExpectedFile {
  path: string;
  oldPath: string | null;
  status: DiffFileStatus;
  binary?: boolean;
  /** Per hunk: [commentable RIGHT lines, added lines]. */
  hunks: [number[], number[]][];
}

interface Case {
  name: string;
  patch: string;
  files: ExpectedFile[];
}

/** The shape of a parsed file that the table compares: sets become sorted arrays. */
function summarise(file: DiffFile): ExpectedFile {
  const sorted = (s: ReadonlySet<number>) => [...s].sort((a, b) => a - b);
  return {
    path: file.path,
    oldPath: file.oldPath,
    status: file.status,
    binary: file.binary,
    hunks: file.hunks.map((h) => [sorted(h.commentable), sorted(h.added)]),
  };
}

// Patches as `git diff` writes them (most were produced by git 2.x and copied verbatim).
const cases: Case[] = [
  {
    name: "added file",
    patch: diff(
      "diff --git a/src/new.ts b/src/new.ts",
      "new file mode 100644",
      "index 0000000..3e75765",
      "--- /dev/null",
      "+++ b/src/new.ts",
      "@@ -0,0 +1,3 @@",
      "+export const a = 1;",
      "+export const b = 2;",
      "+export const c = 3;",
    ),
    files: [
      {
        path: "src/new.ts",
        oldPath: null,
        status: "added",
        hunks: [
          [
            [1, 2, 3],
            [1, 2, 3],
          ],
        ],
      },
    ],
  },
  {
    name: "added single-line file (hunk header without counts)",
    patch: diff(
      "diff --git a/one.txt b/one.txt",
      "new file mode 100644",
      "index 0000000..3e75765",
      "--- /dev/null",
      "+++ b/one.txt",
      "@@ -0,0 +1 @@",
      "+new",
    ),
    files: [{ path: "one.txt", oldPath: null, status: "added", hunks: [[[1], [1]]] }],
  },
  {
    name: "added empty file (no hunks)",
    patch: diff("diff --git a/empty.txt b/empty.txt", "new file mode 100644", "index 0000000..e69de29"),
    files: [{ path: "empty.txt", oldPath: null, status: "added", hunks: [] }],
  },
  {
    name: "deleted file: keyed by the path it had, nothing commentable on the RIGHT",
    patch: diff(
      "diff --git a/del.txt b/del.txt",
      "deleted file mode 100644",
      "index 286c5f5..0000000",
      "--- a/del.txt",
      "+++ /dev/null",
      "@@ -1,2 +0,0 @@",
      "-gone",
      "-also gone",
    ),
    files: [{ path: "del.txt", oldPath: "del.txt", status: "deleted", hunks: [[[], []]] }],
  },
  {
    name: "modified with two hunks and context lines",
    patch: diff(
      "diff --git a/lib/math.ts b/lib/math.ts",
      "index 1111111..2222222 100644",
      "--- a/lib/math.ts",
      "+++ b/lib/math.ts",
      "@@ -2,7 +2,8 @@ export function add(a, b) {",
      " line2",
      " line3",
      " line4",
      "-line5",
      "+line5 changed",
      "+line5b inserted",
      " line6",
      " line7",
      " line8",
      "@@ -20,6 +21,5 @@ export function sub(a, b) {",
      " line20",
      " line21",
      " line22",
      "-line23",
      "-line24",
      "+line23+24",
      " line25",
    ),
    files: [
      {
        path: "lib/math.ts",
        oldPath: "lib/math.ts",
        status: "modified",
        hunks: [
          [
            [2, 3, 4, 5, 6, 7, 8, 9],
            [5, 6],
          ],
          [[21, 22, 23, 24, 25], [24]],
        ],
      },
    ],
  },
  {
    name: "hunk with only deletions: context lines stay commentable, deleted ones have no RIGHT line",
    patch: diff(
      "diff --git a/a.txt b/a.txt",
      "index 1111111..2222222 100644",
      "--- a/a.txt",
      "+++ b/a.txt",
      "@@ -4,5 +4,3 @@",
      " d",
      "-e",
      "-f",
      " g",
      " h",
    ),
    files: [{ path: "a.txt", oldPath: "a.txt", status: "modified", hunks: [[[4, 5, 6], []]] }],
  },
  {
    name: "renamed with changes",
    patch: diff(
      "diff --git a/old/name.ts b/new/name.ts",
      "similarity index 87%",
      "rename from old/name.ts",
      "rename to new/name.ts",
      "index c4fa11d..f3e40bf 100644",
      "--- a/old/name.ts",
      "+++ b/new/name.ts",
      "@@ -5,4 +5,4 @@ s",
      " t",
      " u",
      " v",
      "-w",
      "+W",
    ),
    files: [{ path: "new/name.ts", oldPath: "old/name.ts", status: "renamed", hunks: [[[5, 6, 7, 8], [8]]] }],
  },
  {
    name: "pure rename (no hunks)",
    patch: diff(
      "diff --git a/mv.txt b/moved.txt",
      "similarity index 100%",
      "rename from mv.txt",
      "rename to moved.txt",
    ),
    files: [{ path: "moved.txt", oldPath: "mv.txt", status: "renamed", hunks: [] }],
  },
  {
    name: "copied file",
    patch: diff(
      "diff --git a/src/a.ts b/src/b.ts",
      "similarity index 90%",
      "copy from src/a.ts",
      "copy to src/b.ts",
      "index 1111111..2222222 100644",
      "--- a/src/a.ts",
      "+++ b/src/b.ts",
      "@@ -1,2 +1,2 @@",
      "-x",
      "+y",
      " z",
    ),
    files: [{ path: "src/b.ts", oldPath: "src/a.ts", status: "copied", hunks: [[[1, 2], [1]]] }],
  },
  {
    name: "binary modified",
    patch: diff(
      "diff --git a/img/logo.png b/img/logo.png",
      "index bdc955b..8835708 100644",
      "Binary files a/img/logo.png and b/img/logo.png differ",
    ),
    files: [{ path: "img/logo.png", oldPath: "img/logo.png", status: "modified", binary: true, hunks: [] }],
  },
  {
    name: "binary added",
    patch: diff(
      "diff --git a/img/new.png b/img/new.png",
      "new file mode 100644",
      "index 0000000..8835708",
      "Binary files /dev/null and b/img/new.png differ",
    ),
    files: [{ path: "img/new.png", oldPath: null, status: "added", binary: true, hunks: [] }],
  },
  {
    name: "binary patch (git diff --binary)",
    patch: diff(
      "diff --git a/blob.bin b/blob.bin",
      "index bdc955b..8835708 100644",
      "GIT binary patch",
      "literal 2",
      "JcmZQ%0000200aO4",
      "",
      "literal 2",
      "JcmZQz0000100aO4",
      "",
    ),
    files: [{ path: "blob.bin", oldPath: "blob.bin", status: "modified", binary: true, hunks: [] }],
  },
  {
    name: "no-newline markers do not count as lines",
    patch: diff(
      "diff --git a/n.txt b/n.txt",
      "index 587be6b..e25f181 100644",
      "--- a/n.txt",
      "+++ b/n.txt",
      "@@ -1,2 +1,3 @@",
      " a",
      "-b",
      "\\ No newline at end of file",
      "+b",
      "+c",
      "\\ No newline at end of file",
    ),
    files: [
      {
        path: "n.txt",
        oldPath: "n.txt",
        status: "modified",
        hunks: [
          [
            [1, 2, 3],
            [2, 3],
          ],
        ],
      },
    ],
  },
  {
    name: "path with spaces (git ends ---/+++ names that contain a space with a tab)",
    patch: diff(
      "diff --git a/my dir/my file.ts b/my dir/my file.ts",
      "index de98044..7be73ce 100644",
      "--- a/my dir/my file.ts\t",
      "+++ b/my dir/my file.ts\t",
      "@@ -1,3 +1,3 @@",
      " a",
      "-b",
      "+B",
      " c",
    ),
    files: [{ path: "my dir/my file.ts", oldPath: "my dir/my file.ts", status: "modified", hunks: [[[1, 2, 3], [2]]] }],
  },
  {
    name: "binary with spaces in the path (only the git header names it)",
    patch: diff(
      "diff --git a/a b/c d.png b/a b/c d.png",
      "index bdc955b..8835708 100644",
      "Binary files a/a b/c d.png and b/a b/c d.png differ",
    ),
    files: [{ path: "a b/c d.png", oldPath: "a b/c d.png", status: "modified", binary: true, hunks: [] }],
  },
  {
    name: "pure rename with spaces",
    patch: diff(
      "diff --git a/old name.txt b/new name.txt",
      "similarity index 100%",
      "rename from old name.txt",
      "rename to new name.txt",
    ),
    files: [{ path: "new name.txt", oldPath: "old name.txt", status: "renamed", hunks: [] }],
  },
  {
    name: "quoted path with escapes and UTF-8 octal bytes",
    patch: diff(
      'diff --git "a/t\\303\\253st\\"q.txt" "b/t\\303\\253st\\"q.txt"',
      "index 587be6b..e25f181 100644",
      '--- "a/t\\303\\253st\\"q.txt"',
      '+++ "b/t\\303\\253st\\"q.txt"',
      "@@ -1 +1 @@",
      "-x",
      "+y",
      "\\ No newline at end of file",
    ),
    files: [{ path: 'tëst"q.txt', oldPath: 'tëst"q.txt', status: "modified", hunks: [[[1], [1]]] }],
  },
  {
    name: "quoted binary path with a tab (only the git header names it)",
    patch: diff(
      'diff --git "a/x\\ty.bin" "b/x\\ty.bin"',
      "index bdc955b..8835708 100644",
      'Binary files "a/x\\ty.bin" and "b/x\\ty.bin" differ',
    ),
    files: [{ path: "x\ty.bin", oldPath: "x\ty.bin", status: "modified", binary: true, hunks: [] }],
  },
  {
    name: "quoted rename lines",
    patch: diff(
      'diff --git a/plain.txt "b/\\303\\251t\\303\\251.txt"',
      "similarity index 100%",
      "rename from plain.txt",
      'rename to "\\303\\251t\\303\\251.txt"',
    ),
    files: [{ path: "été.txt", oldPath: "plain.txt", status: "renamed", hunks: [] }],
  },
  {
    name: "removed and added lines that look like ---/+++ headers stay hunk lines",
    patch: diff(
      "diff --git a/notes.md b/notes.md",
      "index 1111111..2222222 100644",
      "--- a/notes.md",
      "+++ b/notes.md",
      "@@ -1,3 +1,3 @@",
      " title",
      "--- a/old",
      "+++ b/new",
      " end",
    ),
    files: [{ path: "notes.md", oldPath: "notes.md", status: "modified", hunks: [[[1, 2, 3], [2]]] }],
  },
  {
    name: "mode change only",
    patch: diff("diff --git a/run.sh b/run.sh", "old mode 100644", "new mode 100755"),
    files: [{ path: "run.sh", oldPath: "run.sh", status: "modified", hunks: [] }],
  },
  {
    name: "type change (delete + add of the same path): the new file wins",
    patch: diff(
      "diff --git a/link b/link",
      "deleted file mode 120000",
      "index 1111111..0000000",
      "--- a/link",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-target",
      "\\ No newline at end of file",
      "diff --git a/link b/link",
      "new file mode 100644",
      "index 0000000..2222222",
      "--- /dev/null",
      "+++ b/link",
      "@@ -0,0 +1,2 @@",
      "+now",
      "+a file",
    ),
    files: [
      {
        path: "link",
        oldPath: null,
        status: "added",
        hunks: [
          [
            [1, 2],
            [1, 2],
          ],
        ],
      },
    ],
  },
  {
    name: "a rename onto a path that was deleted: the deletion listed after it does not replace it",
    patch: diff(
      "diff --git a/old.txt b/spot.txt",
      "similarity index 100%",
      "rename from old.txt",
      "rename to spot.txt",
      "diff --git a/spot.txt b/spot.txt",
      "deleted file mode 100644",
      "index 1111111..0000000",
      "--- a/spot.txt",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-was here",
    ),
    files: [{ path: "spot.txt", oldPath: "old.txt", status: "renamed", hunks: [] }],
  },
  {
    name: "CRLF line endings",
    patch: [
      "diff --git a/w.txt b/w.txt",
      "index 1111111..2222222 100644",
      "--- a/w.txt",
      "+++ b/w.txt",
      "@@ -1,3 +1,3 @@",
      " a",
      "-b",
      "+B",
      "",
      "",
    ].join("\r\n"),
    files: [{ path: "w.txt", oldPath: "w.txt", status: "modified", hunks: [[[1, 2, 3], [2]]] }],
  },
  {
    name: "context line whose leading space was stripped (blank line)",
    patch: diff(
      "diff --git a/b.txt b/b.txt",
      "index 1111111..2222222 100644",
      "--- a/b.txt",
      "+++ b/b.txt",
      "@@ -1,3 +1,3 @@",
      " a",
      "",
      "-c",
      "+C",
    ),
    files: [{ path: "b.txt", oldPath: "b.txt", status: "modified", hunks: [[[1, 2, 3], [3]]] }],
  },
  {
    name: "plain diff -u without git headers, two files",
    patch: diff(
      "--- a/one.txt\t2024-01-01 00:00:00.000000000 +0000",
      "+++ b/one.txt\t2024-01-02 00:00:00.000000000 +0000",
      "@@ -1 +1,2 @@",
      " x",
      "+y",
      "--- a/two.txt",
      "+++ b/two.txt",
      "@@ -3,2 +3,2 @@",
      "-p",
      "+P",
      " q",
    ),
    files: [
      { path: "one.txt", oldPath: "one.txt", status: "modified", hunks: [[[1, 2], [2]]] },
      { path: "two.txt", oldPath: "two.txt", status: "modified", hunks: [[[3, 4], [3]]] },
    ],
  },
  {
    name: "combined (merge) diffs are skipped, the next file is read",
    patch: diff(
      "diff --cc merged.txt",
      "index 1111111,2222222..3333333",
      "--- a/merged.txt",
      "+++ b/merged.txt",
      "@@@ -1,1 -1,1 +1,1 @@@",
      "- a",
      " -b",
      "++c",
      "diff --git a/after.txt b/after.txt",
      "--- a/after.txt",
      "+++ b/after.txt",
      "@@ -1 +1 @@",
      "-o",
      "+n",
    ),
    files: [{ path: "after.txt", oldPath: "after.txt", status: "modified", hunks: [[[1], [1]]] }],
  },
  {
    name: "empty input",
    patch: "",
    files: [],
  },
];

describe("parseDiff", () => {
  it.each(cases)("$name", ({ patch, files }) => {
    const index = parseDiff(patch);
    const expected = files.map((f) => ({ binary: false, ...f }));
    expect([...index.files.values()].map(summarise)).toEqual(expected);
    for (const f of files) expect(index.files.get(f.path)?.path).toBe(f.path);
  });

  it("parses a multi-file diff as git writes it, keeping each file's own lines", () => {
    const index = parseDiff(
      diff(
        "diff --git a/bin.dat b/bin.dat",
        "index bdc955b..8835708 100644",
        "Binary files a/bin.dat and b/bin.dat differ",
        "diff --git a/del.txt b/del.txt",
        "deleted file mode 100644",
        "index 286c5f5..0000000",
        "--- a/del.txt",
        "+++ /dev/null",
        "@@ -1 +0,0 @@",
        "-gone",
        "diff --git a/mv.txt b/moved dir.txt",
        "similarity index 100%",
        "rename from mv.txt",
        "rename to moved dir.txt",
        "diff --git a/my file.ts b/my file.ts",
        "index de98044..7be73ce 100644",
        "--- a/my file.ts\t",
        "+++ b/my file.ts\t",
        "@@ -1,3 +1,3 @@",
        " a",
        "-b",
        "+B",
        " c",
        "diff --git a/new one.txt b/new one.txt",
        "new file mode 100644",
        "index 0000000..3e75765",
        "--- /dev/null",
        "+++ b/new one.txt\t",
        "@@ -0,0 +1 @@",
        "+new",
      ),
    );
    expect([...index.files.keys()]).toEqual(["bin.dat", "del.txt", "moved dir.txt", "my file.ts", "new one.txt"]);
    expect(index.files.get("bin.dat")).toMatchObject({ binary: true, status: "modified", hunks: [] });
    expect(index.files.get("del.txt")?.status).toBe("deleted");
    expect(index.files.get("moved dir.txt")).toMatchObject({ status: "renamed", oldPath: "mv.txt", hunks: [] });
    expect(index.files.get("my file.ts")?.hunks[0]?.commentable).toEqual(new Set([1, 2, 3]));
    expect(index.files.get("new one.txt")?.hunks[0]?.added).toEqual(new Set([1]));
  });

  it("records the hunk header numbers", () => {
    const file = parseDiff(
      diff("diff --git a/x b/x", "--- a/x", "+++ b/x", "@@ -10,3 +12,4 @@ fn", " a", "+b", " c", " d"),
    ).files.get("x");
    expect(file?.hunks[0]).toMatchObject({ oldStart: 10, oldLines: 3, newStart: 12, newLines: 4 });
  });

  it("hunkContaining finds the hunk holding a RIGHT line, and nothing between hunks", () => {
    const file = parseDiff(
      diff(
        "diff --git a/x b/x",
        "--- a/x",
        "+++ b/x",
        "@@ -1,2 +1,2 @@",
        " a",
        "+b",
        "-B",
        "@@ -10,2 +10,2 @@",
        " j",
        "+k",
        "-K",
      ),
    ).files.get("x") as DiffFile;
    expect(hunkContaining(file, 2)).toBe(file.hunks[0]);
    expect(hunkContaining(file, 11)).toBe(file.hunks[1]);
    expect(hunkContaining(file, 5)).toBeUndefined();
    expect(hunkContaining(file, 0)).toBeUndefined();
  });
});
