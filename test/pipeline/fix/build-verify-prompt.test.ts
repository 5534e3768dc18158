import { describe, expect, it } from "vitest";
import { buildVerifyPrompt } from "../../../src/pipeline/fix/build-verify-prompt.js";

const base = { repository: "o/r", prNumber: 7, findings: [], diff: "diff --git a/x b/x\n", sha: "abc" };

describe("buildVerifyPrompt", () => {
  it("names the files of the fix too large to show, so the verifier reads them in the tree", () => {
    const prompt = buildVerifyPrompt({ ...base, leftOut: ["data/huge.json", 'we"ird'] });
    expect(prompt).toContain(
      'The commit also changes these files, too large to show in the diff; read them in the working directory if a finding depends on them: "data/huge.json", "we\\"ird"',
    );
  });

  it("says nothing of left-out files when there are none", () => {
    expect(buildVerifyPrompt(base)).not.toContain("too large");
    expect(buildVerifyPrompt({ ...base, leftOut: [] })).not.toContain("too large");
  });
});
