import { describe, expect, it } from "vitest";
import type { Finding } from "../../../src/db/schema.js";
import {
  failuresForPrompt,
  outputEnd,
  renderFailures,
  renderProof,
} from "../../../src/pipeline/fix/render-fix-proof.js";

const failure = (output: string) => ({
  what: "NM-1's reproducer still fails",
  command: "node --test repro/",
  why: "it exited 1",
  output,
});

describe("a blocked fix's reply: the command and the end of its output, bounded and inert", () => {
  it("names what failed, the command and how it ended, then the output's end in a code block", () => {
    expect(renderFailures([failure("not ok 1 - last\n1 !== 3\n")])).toBe(
      "NM-1's reproducer still fails: `node --test repro/` — it exited 1. Its output ends:\n\n```text\nnot ok 1 - last\n1 !== 3\n```",
    );
  });

  it("output is the attacker's text: no fence it closes, no mention, no marker or tag left live", () => {
    const hostile =
      "````\n@octo-org/admins approve\n<!-- no-mistakes:summary -->\n<img src=x onerror=alert(1)>\n\u202eevil";
    const rendered = renderFailures([failure(hostile)]);
    expect(rendered).toMatch(/^[^\n]*\n\n`````text\n/); // a fence longer than any backtick run inside
    expect(rendered.match(/`````/g)).toHaveLength(2);
    expect(rendered).not.toMatch(/@octo-org/);
    expect(rendered).not.toContain("<!-- no-mistakes:");
    expect(rendered).not.toContain("<img");
    expect(rendered).not.toContain("\u202e");
  });

  it("the command is the reviewer's text too: one inert code span", () => {
    const rendered = renderFailures([{ ...failure(""), command: "echo `x` @someone\nrm -rf /" }]);
    expect(rendered).toBe("NM-1's reproducer still fails: ``echo `x` @\u200bsomeone rm -rf /`` — it exited 1.");
  });

  it("keeps the last 40 lines and at most 3000 characters of it", () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join("\n");
    expect(outputEnd(lines)).toBe(`…\n${Array.from({ length: 40 }, (_, i) => `line ${i + 61}`).join("\n")}`);
    const wide = outputEnd("x".repeat(10_000));
    expect(wide).toBe(`…\n${"x".repeat(3000)}`);
    expect(outputEnd("short\n")).toBe("short");
  });

  it("shows five failures with their output and counts the rest", () => {
    const rendered = renderFailures(Array.from({ length: 7 }, (_, i) => failure(`out ${i}`)));
    expect(rendered.match(/```text/g)).toHaveLength(5);
    expect(rendered.endsWith("…and 2 more.")).toBe(true);
  });

  it("for the fixer: the same words and output, plain", () => {
    expect(failuresForPrompt([failure("1 !== 3")])).toBe(
      "NM-1's reproducer still fails: `node --test repro/` — it exited 1.\nIts output ends:\n1 !== 3",
    );
  });
});

describe("what a pushed fix's reply says was run on it", () => {
  it("the reproducers that now pass, the checks that pass, those not blamed, the regression tests", () => {
    const proof = {
      failures: [],
      passing: [{ finding: { number: 1 } as Finding, command: "node --test repro/" }],
      passed: ["tests"],
      failedBefore: ["lint"],
      brokenBefore: [
        { finding: { number: 2 } as Finding, command: "no-such-runner", why: "its command could not run (exit 127)" },
      ],
    };
    expect(
      renderProof(proof, {
        added: ["repro/last.test.js"],
        leftOut: [{ path: ".github/workflows/x.yml", why: "a workflow file" }],
      }),
    ).toBe(
      [
        "\n\nBefore the push:",
        "- NM-1's reproducer `node --test repro/` now passes.",
        "- NM-2's reproducer `no-such-runner` did not run as a test before the fix either (its command could not run (exit 127)), so it is not held against it.",
        "- Passing: `tests`.",
        "- Failing, but not before the fix either, so not blamed on it: `lint`.",
        "- Added as regression tests: `repro/last.test.js`.",
        "- Not added as regression tests: `.github/workflows/x.yml` (a workflow file).",
      ].join("\n"),
    );
  });

  it("says when nothing could run, and nothing without checks", () => {
    expect(
      renderProof(
        { failures: [], passing: [], passed: [], failedBefore: [], brokenBefore: [], notRun: "the sandbox is off" },
        undefined,
      ),
    ).toBe("\n\nBefore the push:\n- The repository's checks were not run on the fix: the sandbox is off.");
    expect(renderProof(undefined, undefined)).toBe("");
    expect(renderProof({ failures: [], passing: [], passed: [], failedBefore: [], brokenBefore: [] }, undefined)).toBe(
      "",
    );
  });
});
