import { describe, expect, it } from "vitest";
import { parseDiff } from "../../src/github/parse-diff.js";
import { canSuggest, placeFinding } from "../../src/github/place-finding.js";
import type { FindingLocation, Placement } from "../../src/github/place-finding.js";

const diff = (...lines: string[]): string => `${lines.join("\n")}\n`;

/**
 * src/app.ts: hunk 1 has RIGHT lines 1-6 (3 added), hunk 2 has RIGHT lines 21-25 (23 added);
 * lines 7-20 and 26+ are outside the diff. Plus a deleted, a binary, a purely renamed and an
 * added file whose path has a space.
 */
const index = parseDiff(
  diff(
    "diff --git a/src/app.ts b/src/app.ts",
    "index 1111111..2222222 100644",
    "--- a/src/app.ts",
    "+++ b/src/app.ts",
    "@@ -1,5 +1,6 @@",
    " one",
    " two",
    "+three",
    " four",
    "-five",
    "+FIVE",
    " six",
    "@@ -20,4 +21,5 @@ function f() {",
    " twenty-one",
    " twenty-two",
    "+twenty-three",
    " twenty-four",
    " twenty-five",
    "diff --git a/gone.ts b/gone.ts",
    "deleted file mode 100644",
    "index 286c5f5..0000000",
    "--- a/gone.ts",
    "+++ /dev/null",
    "@@ -1,2 +0,0 @@",
    "-a",
    "-b",
    "diff --git a/logo.png b/logo.png",
    "index bdc955b..8835708 100644",
    "Binary files a/logo.png and b/logo.png differ",
    "diff --git a/old.ts b/moved.ts",
    "similarity index 100%",
    "rename from old.ts",
    "rename to moved.ts",
    "diff --git a/docs/read me.md b/docs/read me.md",
    "new file mode 100644",
    "index 0000000..3e75765",
    "--- /dev/null",
    "+++ b/docs/read me.md\t",
    "@@ -0,0 +1,2 @@",
    "+# Title",
    "+text",
  ),
);

const inline = (path: string, line: number, startLine?: number): Placement =>
  startLine === undefined
    ? { kind: "inline", path, line, side: "RIGHT" }
    : { kind: "inline", path, line, startLine, side: "RIGHT" };
const body = (reason: Extract<Placement, { kind: "body" }>["reason"]): Placement => ({ kind: "body", reason });

const APP = "src/app.ts";

const cases: [string, FindingLocation, Placement][] = [
  // Where a finding has no usable line.
  ["no line", { path: APP }, body("no-line")],
  ["line 0", { path: APP, line: 0 }, body("no-line")],
  ["negative line", { path: APP, line: -3 }, body("no-line")],
  ["fractional line", { path: APP, line: 2.5 }, body("no-line")],
  ["NaN line", { path: APP, line: Number.NaN }, body("no-line")],
  ["range starting at 0", { path: APP, line: 0, endLine: 3 }, body("no-line")],
  // Files the diff cannot take a comment on.
  ["file not in diff", { path: "src/other.ts", line: 3 }, body("file-not-in-diff")],
  ["old path of a renamed file", { path: "old.ts", line: 1 }, body("file-not-in-diff")],
  ["deleted file", { path: "gone.ts", line: 1 }, body("deleted-file")],
  ["binary file", { path: "logo.png", line: 1 }, body("binary")],
  ["pure rename: no lines in the diff", { path: "moved.ts", line: 1 }, body("line-not-in-diff")],
  // Single lines.
  ["context line", { path: APP, line: 1 }, inline(APP, 1)],
  ["added line", { path: APP, line: 3 }, inline(APP, 3)],
  ["last line of a hunk", { path: APP, line: 6 }, inline(APP, 6)],
  ["context line in the second hunk", { path: APP, line: 21 }, inline(APP, 21)],
  ["first line after a hunk", { path: APP, line: 7 }, body("line-not-in-diff")],
  ["line between hunks", { path: APP, line: 10 }, body("line-not-in-diff")],
  ["line just before the second hunk", { path: APP, line: 20 }, body("line-not-in-diff")],
  ["line past the end of the diff", { path: APP, line: 100 }, body("line-not-in-diff")],
  // Ranges.
  ["range inside one hunk", { path: APP, line: 2, endLine: 5 }, inline(APP, 5, 2)],
  ["range covering a whole hunk", { path: APP, line: 21, endLine: 25 }, inline(APP, 25, 21)],
  ["range of one line (endLine == line)", { path: APP, line: 5, endLine: 5 }, inline(APP, 5)],
  ["range crossing hunks: kept as its end line", { path: APP, line: 2, endLine: 22 }, inline(APP, 22)],
  ["range starting between hunks: its end line", { path: APP, line: 8, endLine: 22 }, inline(APP, 22)],
  ["range ending between hunks: its first line", { path: APP, line: 4, endLine: 10 }, inline(APP, 4)],
  ["range ending past the diff: its first line", { path: APP, line: 24, endLine: 40 }, inline(APP, 24)],
  ["range wholly between hunks", { path: APP, line: 10, endLine: 12 }, body("line-not-in-diff")],
  ["range spanning a gap with neither end in the diff", { path: APP, line: 8, endLine: 30 }, body("line-not-in-diff")],
  ["endLine < line: line only", { path: APP, line: 5, endLine: 2 }, inline(APP, 5)],
  ["endLine < line, line outside: not moved to endLine", { path: APP, line: 10, endLine: 3 }, body("line-not-in-diff")],
  ["endLine 0: line only", { path: APP, line: 3, endLine: 0 }, inline(APP, 3)],
  // Paths.
  ["leading ./ is ignored", { path: "./src/app.ts", line: 3 }, inline(APP, 3)],
  ["leading / is ignored", { path: "/src/app.ts", line: 3 }, inline(APP, 3)],
  ["path with a space, added file", { path: "docs/read me.md", line: 1, endLine: 2 }, inline("docs/read me.md", 2, 1)],
  ["added file, past its end", { path: "docs/read me.md", line: 3 }, body("line-not-in-diff")],
];

describe("placeFinding", () => {
  it.each(cases)("%s", (_name, finding, expected) => {
    expect(placeFinding(index, finding)).toStrictEqual(expected);
  });

  it("never returns a multi-line comment whose ends are in different hunks or out of order", () => {
    const file = index.files.get(APP);
    if (!file) throw new Error("fixture has no src/app.ts");
    for (let line = 1; line <= 30; line++) {
      for (let endLine = 1; endLine <= 30; endLine++) {
        const placement = placeFinding(index, { path: APP, line, endLine });
        if (placement.kind !== "inline") continue;
        const hunk = file.hunks.find((h) => h.commentable.has(placement.line));
        expect(hunk, `line ${placement.line} for ${line}..${endLine}`).toBeDefined();
        if (placement.startLine !== undefined) {
          expect(placement.startLine).toBeLessThan(placement.line);
          expect(hunk?.commentable.has(placement.startLine)).toBe(true);
        }
      }
    }
  });
});

describe("canSuggest", () => {
  const suggestCases: [string, FindingLocation, boolean][] = [
    ["single line placed as is", { path: APP, line: 3 }, true],
    ["range placed as is", { path: APP, line: 2, endLine: 5 }, true],
    ["endLine == line", { path: APP, line: 5, endLine: 5 }, true],
    ["endLine < line is a single line", { path: APP, line: 5, endLine: 2 }, true],
    ["path given with ./", { path: "./src/app.ts", line: 3 }, true],
    ["range shrunk to its end line", { path: APP, line: 2, endLine: 22 }, false],
    ["range shrunk to its first line", { path: APP, line: 4, endLine: 10 }, false],
    ["in the body", { path: APP, line: 10 }, false],
    ["no line", { path: APP }, false],
    ["deleted file", { path: "gone.ts", line: 1 }, false],
  ];

  it.each(suggestCases)("%s", (_name, finding, expected) => {
    expect(canSuggest(placeFinding(index, finding), finding)).toBe(expected);
  });

  it("is false when the placement does not cover exactly the finding's lines", () => {
    expect(canSuggest(inline(APP, 5, 2), { path: APP, line: 2 })).toBe(false);
    expect(canSuggest(inline(APP, 5, 2), { path: APP, line: 3, endLine: 5 })).toBe(false);
    expect(canSuggest(inline(APP, 5), { path: APP, line: 2, endLine: 5 })).toBe(false);
    expect(canSuggest(inline(APP, 5), { path: "src/elsewhere.ts", line: 5 })).toBe(false);
    expect(canSuggest(inline(APP, 5, 2), { path: APP, line: 2, endLine: 5 })).toBe(true);
  });
});
