import { describe, expect, it } from "vitest";
import type { Finding } from "../../../src/db/schema.js";
import type { CheckRun } from "../../../src/pipeline/checks/run-checks.js";
import type { Reproduction } from "../../../src/pipeline/checks/run-reproducer.js";
import { compareChecks, judgeReproducers } from "../../../src/pipeline/fix/judge-fix.js";

const finding = (number: number, reproduction: string | null = "reproduced") => ({ number, reproduction }) as Finding;
const reproducer = (number: number, outcome: Reproduction, why: string, atReview: string | null = "reproduced") => ({
  finding: finding(number, atReview),
  command: `run ${number}`,
  run: { outcome, why, exitCode: outcome === "not-reproduced" ? 0 : 1, durationMs: 5, output: `out ${number}` },
});
const check = (name: string, outcome: string, exitCode: number | null = outcome === "passed" ? 0 : 1): CheckRun => ({
  name,
  command: `cmd ${name}`,
  outcome,
  exitCode,
  durationMs: 1,
  output: `out ${name}`,
  executionId: 1,
});

describe("judgeReproducers: each claimed finding's reproducer must now pass", () => {
  it.each<[string, ReturnType<typeof reproducer>[], string[], number[], number[]?]>([
    ["passes now: nothing blocks", [reproducer(1, "not-reproduced", "it passed")], [], [1]],
    [
      "still fails: blocks",
      [reproducer(1, "reproduced", "it exited 1")],
      ["NM-1's reproducer still fails | run 1 | it exited 1 | out 1"],
      [],
    ],
    [
      "broken (cannot tell): blocks, said so",
      [reproducer(2, "broken", "it passed its time limit")],
      ["NM-2's reproducer cannot tell whether the fix works | run 2 | it passed its time limit | out 2"],
      [],
    ],
    [
      "one of two still fails",
      [reproducer(1, "not-reproduced", "it passed"), reproducer(3, "reproduced", "it exited 2")],
      ["NM-3's reproducer still fails | run 3 | it exited 2 | out 3"],
      [1],
    ],
    ["no reproducer: nothing to run, nothing blocks", [], [], [], []],
    [
      "never run at the review (no outcome kept): held to the same rule",
      [reproducer(4, "reproduced", "it exited 1", null)],
      ["NM-4's reproducer still fails | run 4 | it exited 1 | out 4"],
      [],
      [],
    ],
    [
      "broken at the review and still: reported, not held against the fix",
      [reproducer(5, "broken", "its command could not run (exit 127)", "broken")],
      [],
      [],
      [5],
    ],
    [
      "broken at the review, passing now: counts as passing",
      [reproducer(6, "not-reproduced", "it passed", "broken")],
      [],
      [6],
      [],
    ],
  ])("%s", (_name, runs, failures, passing, brokenBefore = []) => {
    const judged = judgeReproducers(runs);
    expect(judged.failures.map((f) => [f.what, f.command, f.why, f.output].join(" | "))).toEqual(failures);
    expect(judged.passing.map((p) => p.finding.number)).toEqual(passing);
    expect(judged.brokenBefore.map((p) => p.finding.number)).toEqual(brokenBefore);
  });
});

describe("compareChecks: a check that passed before and fails after blocks; one that did not pass before is not blamed", () => {
  it.each<[string, CheckRun[], CheckRun[] | undefined, string[], string[], string[]]>([
    ["all pass after: no comparison needed", [check("tests", "passed")], undefined, [], ["tests"], []],
    [
      "passed before, fails after: blamed",
      [check("tests", "failed")],
      [check("tests", "passed")],
      ["the check `tests` passed before the fix and fails after it | cmd tests | it exited 1"],
      [],
      [],
    ],
    ["failed before too: reported, not blamed", [check("lint", "failed")], [check("lint", "failed")], [], [], ["lint"]],
    [
      "timed out after, passed before: blamed, with how it ended",
      [check("tests", "timed-out", null)],
      [check("tests", "passed")],
      ["the check `tests` passed before the fix and fails after it | cmd tests | it passed its time limit"],
      [],
      [],
    ],
    [
      "a setup that passed before and fails after is blamed like a check",
      [check("setup", "failed", null), check("tests", "failed")],
      [check("setup", "passed"), check("tests", "failed")],
      ["the check `setup` passed before the fix and fails after it | cmd setup | it failed"],
      [],
      ["tests"],
    ],
    [
      "the tip could not be run: nothing known to have passed, nothing blamed",
      [check("tests", "failed")],
      undefined,
      [],
      [],
      ["tests"],
    ],
    [
      "compared by name and command: a check named like the setup is not the setup",
      [check("setup", "failed")],
      [{ ...check("setup", "passed"), command: "npm ci" }],
      [],
      [],
      ["setup"],
    ],
    [
      "a backtick in a check's name cannot open code in the words",
      [check("a`b", "failed")],
      [check("a`b", "passed")],
      ["the check `a'b` passed before the fix and fails after it | cmd a`b | it exited 1"],
      [],
      [],
    ],
  ])("%s", (_name, after, before, failures, passed, failedBefore) => {
    const compared = compareChecks(after, before);
    expect(compared.failures.map((f) => [f.what, f.command, f.why].join(" | "))).toEqual(failures);
    expect(compared.passed).toEqual(passed);
    expect(compared.failedBefore).toEqual(failedBefore);
  });
});
