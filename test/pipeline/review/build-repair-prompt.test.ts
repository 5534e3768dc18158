import { describe, expect, it } from "vitest";
import { buildRepairPrompt } from "../../../src/pipeline/review/build-repair-prompt.js";

describe("buildRepairPrompt", () => {
  it("lists the problems and asks for the JSON object only", () => {
    const prompt = buildRepairPrompt([
      'findings[2].severity: expected one of error, warning, info (got "critical")',
      "findings[3].title: required",
    ]);
    expect(prompt).toContain(
      'Your answer could not be used:\n- findings[2].severity: expected one of error, warning, info (got "critical")\n- findings[3].title: required\n',
    );
    expect(prompt).toContain("Answer again with the same review as only this JSON object, no prose, no code fence:");
    expect(prompt).toContain('{"summary":"one paragraph","findings":[');
    expect(Buffer.byteLength(prompt)).toBeLessThan(1200);
  });

  it.each<[string, string[], string]>([
    ["no problems", [], "- the answer could not be read"],
    ["a multi-line problem", ["answer: bad\nreally bad"], "- answer: bad really bad"],
  ])("handles %s", (_name, problems, line) => {
    expect(buildRepairPrompt(problems).split("\n")).toContain(line);
  });
});
