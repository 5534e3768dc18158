import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { mapRenamedLine } from "../../../src/pipeline/ledger/map-renamed-line.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";

afterAll(() => removeTempDirs());

function gitDiff(before: string[], after: string[]): string {
  const dir = tempDir("nm-map-");
  writeFileSync(join(dir, "a"), `${before.join("\n")}\n`);
  writeFileSync(join(dir, "b"), `${after.join("\n")}\n`);
  try {
    return execFileSync("git", ["diff", "--no-index", "-U0", "a", "b"], { cwd: dir, encoding: "utf8" });
  } catch (error) {
    return (error as { stdout: string }).stdout;
  }
}

const base = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);

/** The oracle: where line `n`'s text sits in `after` (when it is unique there). */
const whereIs = (after: string[], n: number) => {
  const i = after.indexOf(`line ${n}`);
  return i < 0 ? undefined : i + 1;
};

describe("mapRenamedLine: old line → new line through a real git diff", () => {
  const cases: [string, string[]][] = [
    ["unchanged file", base],
    ["two lines inserted at the top", ["new a", "new b", ...base]],
    ["line 5 removed", base.filter((l) => l !== "line 5")],
    ["line 10 rewritten", base.map((l) => (l === "line 10" ? "changed" : l))],
    ["three lines inserted after line 12", [...base.slice(0, 12), "x", "y", "z", ...base.slice(12)]],
    [
      "lines 3-4 replaced by one line, one line added at the end",
      [...base.slice(0, 2), "merged", ...base.slice(4), "tail"],
    ],
  ];
  for (const [name, after] of cases) {
    it(name, () => {
      const diff = gitDiff(base, after);
      for (let n = 1; n <= base.length; n++) expect(mapRenamedLine(diff, n), `line ${n}`).toBe(whereIs(after, n));
    });
  }
});
