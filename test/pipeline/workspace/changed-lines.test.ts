import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  changedLines,
  intersectChanges,
  touchesChanged,
  type ChangedLines,
} from "../../../src/pipeline/workspace/changed-lines.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";

afterAll(() => removeTempDirs());

const lines = (n: number, change: Record<number, string | null> = {}): string =>
  Array.from({ length: n }, (_, i) => (change[i + 1] === null ? undefined : (change[i + 1] ?? `line ${i + 1}`)))
    .filter((l) => l !== undefined)
    .join("\n") + "\n";

/** The zero-context diff real git produces from one tree to another (paths → content; absent = no file). */
function gitDiff(before: Record<string, string>, after: Record<string, string>): string {
  const dir = tempDir("nm-changed-");
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir, encoding: "utf8" });
  git("init", "-q");
  const commit = (files: Record<string, string>) => {
    git("rm", "-rq", "--ignore-unmatch", ".");
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    git("add", "-A");
    git("commit", "-qm", "c", "--allow-empty");
    return git("rev-parse", "HEAD").trim();
  };
  const a = commit(before);
  const b = commit(after);
  return git("diff", "-M", "-U0", a, b);
}

const asObject = (changed: ChangedLines) =>
  Object.fromEntries([...changed].map(([p, l]) => [p, l === "file" ? "file" : [...l].sort((x, y) => x - y)]));

describe("changedLines", () => {
  it.each<[string, Record<string, string>, Record<string, string>, Record<string, number[] | "file">]>([
    ["an edited line", { "a.ts": lines(10) }, { "a.ts": lines(10, { 4: "four" }) }, { "a.ts": [4] }],
    ["an insertion", { "a.ts": lines(5) }, { "a.ts": lines(5, { 2: "line 2\nnew" }) }, { "a.ts": [3] }],
    [
      "a deletion marks the lines around it",
      { "a.ts": lines(6) },
      { "a.ts": lines(6, { 3: null }) },
      { "a.ts": [2, 3] },
    ],
    ["a new file", {}, { "n.ts": lines(3) }, { "n.ts": "file" }],
    ["a deleted file", { "d.ts": lines(3) }, {}, { "d.ts": "file" }],
    ["a pure rename changes no line", { "old.ts": lines(20) }, { "new.ts": lines(20) }, {}],
    [
      "a rename with an edit changes only the edited line, on the new path",
      { "old.ts": lines(20) },
      { "new.ts": lines(20, { 12: "edited" }) },
      { "new.ts": [12] },
    ],
  ])("%s", (_, before, after, expected) => {
    expect(asObject(changedLines(gitDiff(before, after)))).toEqual(expected);
  });
});

describe("intersectChanges (the PR's own changes since the last review)", () => {
  it("keeps what changed since the last review and is part of the PR's diff; drops what the base brought in", () => {
    const last = { "a.ts": lines(30, { 10: "pr 10" }) };
    // since the last review: the base changed line 25 (merged in), the PR changed line 3
    const head = { "a.ts": lines(30, { 3: "pr 3", 10: "pr 10", 25: "base 25" }) };
    const mergedBase = { "a.ts": lines(30, { 25: "base 25" }) };
    const own = intersectChanges(changedLines(gitDiff(last, head)), changedLines(gitDiff(mergedBase, head)));
    expect(asObject(own)).toEqual({ "a.ts": [3] });
  });

  it("a whole-file change on either side keeps the other side's lines", () => {
    const a: ChangedLines = new Map<string, ReadonlySet<number> | "file">([
      ["x", "file"],
      ["y", new Set([1, 2])],
    ]);
    const b: ChangedLines = new Map<string, ReadonlySet<number> | "file">([
      ["x", new Set([5])],
      ["y", "file"],
      ["z", new Set([1])],
    ]);
    expect(asObject(intersectChanges(a, b))).toEqual({ x: [5], y: [1, 2] });
  });
});

describe("touchesChanged", () => {
  const changed: ChangedLines = new Map<string, ReadonlySet<number> | "file">([
    ["a.ts", new Set([4, 9])],
    ["bin.png", "file"],
  ]);
  it.each<[string, number | undefined, number | undefined, boolean]>([
    ["a.ts", 4, undefined, true],
    ["a.ts", 5, undefined, false],
    ["a.ts", 5, 9, true],
    ["a.ts", 5, 8, false],
    ["a.ts", undefined, undefined, true],
    ["bin.png", 3, undefined, true],
    ["other.ts", undefined, undefined, false],
  ])("%s:%s-%s → %s", (path, line, end, expected) => {
    expect(touchesChanged(changed, path, line, end)).toBe(expected);
  });
});
