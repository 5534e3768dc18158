import { describe, expect, it } from "vitest";
import type { ConfigProblem } from "../../../src/config/repo/config-problem.js";
import { withConfigProblems } from "../../../src/pipeline/render/with-config-problems.js";

const own = (key: string): ConfigProblem => ({ file: ".github/no-mistakes.yml", line: 2, key, message: "m" });
const org: ConfigProblem = { file: "acme/.github:.github/no-mistakes.yml", line: 4, message: "m" };
const base: ConfigProblem = { file: "acme/base:review.yml", message: "m" };

describe("withConfigProblems: the checks list shows a config problem", () => {
  it.each([
    ["success", [], "success", "Converged · No open findings"],
    [
      "success",
      [own("review.session")],
      "neutral",
      "Converged · No open findings · 1 config problem in .github/no-mistakes.yml",
    ],
    [
      "failure",
      [own("a"), own("b")],
      "failure",
      "Converged · No open findings · 2 config problems in .github/no-mistakes.yml",
    ],
    [
      "neutral",
      [own("a"), org],
      "neutral",
      "Converged · No open findings · 2 config problems in .github/no-mistakes.yml and acme/.github:.github/no-mistakes.yml",
    ],
    ["success", [own("a"), org, base], "neutral", "Converged · No open findings · 3 config problems in 3 config files"],
  ] as const)("%s with %j → %s", (conclusion, problems, expected, title) => {
    const verdict = { conclusion, title: "Converged · No open findings", summary: "kept" };
    expect(withConfigProblems(verdict, problems)).toEqual({ conclusion: expected, title, summary: "kept" });
  });
});
