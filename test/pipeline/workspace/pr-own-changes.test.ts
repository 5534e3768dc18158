import { describe, expect, it } from "vitest";
import type { TreeChange } from "../../../src/git/tree-change.js";
import { prOwnChanges } from "../../../src/pipeline/workspace/pr-own-changes.js";

const NONE = "0".repeat(40);
const FILE = "100644";
const EXEC = "100755";

/** A blob id made of one repeated character ("a" → "aaaa…"); "-" is an absent side. */
const blob = (c: string) => (c === "-" ? NONE : c.repeat(40));
/** `path: old→new` with one-letter blobs; "-" for an absent side. */
function change(path: string, from: string, to: string, modes: [string, string] = [FILE, FILE]): TreeChange {
  return {
    path,
    oldMode: from === "-" ? "000000" : modes[0],
    newMode: to === "-" ? "000000" : modes[1],
    oldBlob: blob(from),
    newBlob: blob(to),
  };
}

// Each row: the PR's diff then (merge base then..last), now (merge base now..head), last..head, and the files expected.
const cases: { name: string; before: TreeChange[]; after: TreeChange[]; sinceLast: TreeChange[]; own: string[] }[] = [
  {
    name: "a file only the base added (merged in): in neither PR diff → left out",
    before: [change("src/pr.ts", "a", "b")],
    after: [change("src/pr.ts", "a", "b")],
    sinceLast: [change("gen/new.ts", "-", "n")],
    own: [],
  },
  {
    name: "a file only the base changed: in neither PR diff → left out",
    before: [],
    after: [],
    sinceLast: [change("lib/util.ts", "u", "v")],
    own: [],
  },
  {
    name: "a file the PR changed again since the last review → counts",
    before: [change("src/pr.ts", "a", "b")],
    after: [change("src/pr.ts", "a", "c")],
    sinceLast: [change("src/pr.ts", "b", "c")],
    own: ["src/pr.ts"],
  },
  {
    name: "a file the PR touches for the first time → counts",
    before: [],
    after: [change("src/other.ts", "o", "p")],
    sinceLast: [change("src/other.ts", "o", "p")],
    own: ["src/other.ts"],
  },
  {
    name: "a file both the base and the PR changed (merged cleanly): new base side, head moved → counts",
    before: [change("src/app.ts", "a", "b")],
    after: [change("src/app.ts", "x", "y")],
    sinceLast: [change("src/app.ts", "b", "y")],
    own: ["src/app.ts"],
  },
  {
    name: "a file the PR added and the base added identically: gone from the PR diff, head unchanged → left out",
    before: [change("src/shared.ts", "-", "s")],
    after: [],
    sinceLast: [],
    own: [],
  },
  {
    name: "a PR change the base took over verbatim (cherry-picked): gone from the PR diff, head unchanged → left out",
    before: [change("src/taken.ts", "a", "b")],
    after: [],
    sinceLast: [],
    own: [],
  },
  {
    name: "the PR reverted its own change to a file: present then, absent now, head moved → counts",
    before: [change("src/undone.ts", "a", "b")],
    after: [],
    sinceLast: [change("src/undone.ts", "b", "a")],
    own: ["src/undone.ts"],
  },
  {
    name: "the PR deleted a file since the last review → counts",
    before: [],
    after: [change("src/gone.ts", "g", "-")],
    sinceLast: [change("src/gone.ts", "g", "-")],
    own: ["src/gone.ts"],
  },
  {
    name: "a rename by the PR since the last review: both sides count",
    before: [],
    after: [change("src/old.ts", "r", "-"), change("src/new.ts", "-", "r")],
    sinceLast: [change("src/old.ts", "r", "-"), change("src/new.ts", "-", "r")],
    own: ["src/new.ts", "src/old.ts"],
  },
  {
    name: "only the mode changed on the PR side → counts",
    before: [change("bin/run", "a", "b")],
    after: [change("bin/run", "a", "b", [FILE, EXEC])],
    sinceLast: [change("bin/run", "b", "b", [FILE, EXEC])],
    own: ["bin/run"],
  },
  {
    name: "a merge that changed a file neither side touched (evil merge) → counts",
    before: [],
    after: [change("src/evil.ts", "e", "f")],
    sinceLast: [change("src/evil.ts", "e", "f")],
    own: ["src/evil.ts"],
  },
  {
    name: "50 base files and one PR-side change: only the PR's file, sorted, once",
    before: [change("src/pr.ts", "a", "b")],
    after: [change("src/pr.ts", "a", "c")],
    sinceLast: [
      ...Array.from({ length: 50 }, (_, i) => change(`gen/f${i}.ts`, "-", "n")),
      change("src/pr.ts", "b", "c"),
    ],
    own: ["src/pr.ts"],
  },
  {
    name: "nothing changed since the last review → nothing",
    before: [change("src/pr.ts", "a", "b")],
    after: [change("src/pr.ts", "x", "b")],
    sinceLast: [],
    own: [],
  },
  {
    name: "output sorted by code unit",
    before: [],
    after: [change("b.ts", "-", "1"), change("B.ts", "-", "1"), change("a/z.ts", "-", "1")],
    sinceLast: [change("b.ts", "-", "1"), change("B.ts", "-", "1"), change("a/z.ts", "-", "1")],
    own: ["B.ts", "a/z.ts", "b.ts"],
  },
];

describe("prOwnChanges", () => {
  it.each(cases)("$name", ({ before, after, sinceLast, own }) => {
    expect(prOwnChanges({ before, after, sinceLast })).toEqual(own);
  });
});
