import { describe, expect, it } from "vitest";
import type { ChangedLines } from "../../../src/pipeline/workspace/changed-lines.js";
import { raiseOrNote, type RaiseCandidate } from "../../../src/pipeline/ledger/raise-or-note.js";

const CHANGED: ChangedLines = new Map([["src/a.ts", new Set([10, 11])]]);
const at = (over: Partial<RaiseCandidate>): RaiseCandidate => ({
  path: "src/a.ts",
  line: 3,
  severity: "warning",
  ...over,
});

describe("raiseOrNote", () => {
  it.each<[string, RaiseCandidate, ChangedLines | undefined, ReturnType<typeof raiseOrNote>]>([
    ["a review of the whole PR raises everything", at({}), undefined, { raise: true, because: "whole-review" }],
    ["a warning on a changed line is raised", at({ line: 10 }), CHANGED, { raise: true, because: "changed-line" }],
    [
      "a range reaching a changed line is raised",
      at({ line: 5, endLine: 10 }),
      CHANGED,
      { raise: true, because: "changed-line" },
    ],
    ["a warning on an unchanged line is a note", at({}), CHANGED, { raise: false, because: "unchanged-code" }],
    [
      "an info in an unchanged file is a note",
      at({ path: "src/b.ts", line: undefined, severity: "info" }),
      CHANGED,
      { raise: false, because: "unchanged-code" },
    ],
    ["an error on an unchanged line is raised", at({ severity: "error" }), CHANGED, { raise: true, because: "error" }],
    [
      "broken by a changed line: raised",
      at({ brokenBy: { path: "src/a.ts", line: 11 } }),
      CHANGED,
      { raise: true, because: "broken-by" },
    ],
    [
      "broken by an unchanged line: a note",
      at({ brokenBy: { path: "src/a.ts", line: 12 } }),
      CHANGED,
      { raise: false, because: "broken-by-unchanged-line" },
    ],
    [
      "broken by a line of an unchanged file: a note",
      at({ brokenBy: { path: "src/b.ts", line: 10 } }),
      CHANGED,
      { raise: false, because: "broken-by-unchanged-line" },
    ],
    [
      "nothing changed (the same head again): a warning is a note",
      at({ line: 10 }),
      new Map(),
      { raise: false, because: "unchanged-code" },
    ],
  ])("%s", (_, finding, changed, expected) => {
    expect(raiseOrNote(finding, changed)).toEqual(expected);
  });
});
