import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { touchesLines } from "../../../src/pipeline/ledger/touches-lines.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";

afterAll(() => removeTempDirs());

const lines = (
  n: number,
  change: Record<number, string | null> = {},
  insertAfter: Record<number, string> = {},
): string => {
  const out: string[] = [];
  for (let i = 1; i <= n; i++) {
    if (change[i] !== null) out.push(change[i] ?? `line ${i}`);
    if (insertAfter[i] !== undefined) out.push(insertAfter[i]!);
  }
  return `${out.join("\n")}\n`;
};

/** The diff real git produces between two versions of a file, zero context (the oracle is git itself). */
function gitDiff(before: string, after: string): string {
  const dir = tempDir("nm-touch-");
  writeFileSync(join(dir, "a"), before);
  writeFileSync(join(dir, "b"), after);
  try {
    return execFileSync("git", ["diff", "--no-index", "-U0", "a", "b"], { cwd: dir, encoding: "utf8" });
  } catch (error) {
    return (error as { stdout: string }).stdout; // exit 1: the files differ
  }
}

describe("touchesLines: did the change work on the finding's lines?", () => {
  const before = lines(30);
  it.each([
    ["the finding's own line changed", lines(30, { 11: "fixed" }), 11, null, true],
    ["a line inside its range changed", lines(30, { 12: "fixed" }), 11, 13, true],
    ["its line deleted", lines(30, { 11: null }), 11, null, true],
    ["a line inserted right after it", lines(30, {}, { 11: "new" }), 11, null, true],
    ["a line inserted inside its range", lines(30, {}, { 12: "new" }), 11, 14, true],
    ["only a far line changed", lines(30, { 25: "elsewhere" }), 11, null, false],
    ["the line just below its range changed", lines(30, { 14: "x" }), 11, 13, false],
    ["the line just above changed", lines(30, { 10: "x" }), 11, 13, false],
    ["nothing changed", lines(30), 11, null, false],
    ["a file-level finding, any change", lines(30, { 25: "x" }), null, null, true],
  ] as const)("%s", (_name, after, line, endLine, expected) => {
    expect(touchesLines(gitDiff(before, after), line, endLine)).toBe(expected);
  });

  it("a deleted file counts as touched", () => {
    expect(touchesLines("diff --git a/x b/x\ndeleted file mode 100644\nindex 1..0\n", 3, null)).toBe(true);
  });
});
