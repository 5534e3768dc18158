import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { neutralizeAgentText } from "../../src/text/neutralize-agent-text.js";

describe("neutralizeAgentText", () => {
  it.each([
    ["Closes #1", "Closes issue 1"],
    ["See: closes #1, #2 and #3", "See - closes issue 1, issue 2 and issue 3"],
    ["This fixes owner/repo#2 too", "This fixes owner/repo issue 2 too"],
    ["RESOLVED https://github.com/o/r/issues/7", "RESOLVED o/r issue 7"],
    ["fixed https://ghe.example/o/r/pull/8.", "fixed o/r issue 8."],
    ["Fix GH-4", "Fix issue 4"],
    ["Co-authored-by: X <x@y>", "Co-authored-by - X <x@y>"],
    ["text\n  Signed-off-by: Mallory <m@evil.example>", "text\n  Signed-off-by - Mallory <m@evil.example>"],
    ["ping @someone and @org/team", "ping someone and org/team"],
    ["@lead: look", "lead - look"],
    ["mail admin@example.org", "mail admin@example.org"],
  ])("%j → %j", (input, output) => {
    expect(neutralizeAgentText(input)).toBe(output);
  });

  it("leaves ordinary prose alone", () => {
    const prose = "Used < for the loop bound (it fixed the off-by-one in run()). See NM-1; issue #3 is unrelated.";
    expect(neutralizeAgentText(prose)).toBe(prose);
  });

  it("leaves git nothing to read as a trailer", () => {
    const text = neutralizeAgentText("Done.\n\nCo-authored-by: X <x@y>\nSigned-off-by: Y <y@z>\nReviewed-by: @boss");
    const trailers = execFileSync("git", ["interpret-trailers", "--parse"], { input: `subject\n\n${text}\n` });
    expect(trailers.toString()).toBe("");
  });
});
