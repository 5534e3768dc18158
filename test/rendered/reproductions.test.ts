import { describe, expect, it } from "vitest";
import { checkConclusion, renderCheckOutput } from "../../src/pipeline/render/render-check-output.js";
import { renderFindingComment } from "../../src/pipeline/render/render-finding-comment.js";
import { renderSummary } from "../../src/pipeline/render/render-summary.js";
import { finding, HEAD_SHA, LIVE_MENTION, LIVE_TAG, snap, turn, visible } from "./fixtures.js";

/** What reviewers' reproducers change in what the bot posts: the finding comments, the summary, the check run. */

const REPRODUCER = {
  files: [{ path: "test/invoice.test.ts", content: "test('rounds', () => expect(total([0.1, 0.2])).toBe(0.3));\n" }],
  command: "npx vitest run test/invoice.test.ts",
};

/** A failing test's output as the PR author's code printed it: a mention, a marker, a fence, a tag. */
const HOSTILE_OUTPUT = [
  " FAIL  test/invoice.test.ts > rounds",
  "AssertionError: expected 0.30000000000000004 to be 0.3",
  ...Array.from({ length: 60 }, (_, i) => `    at frame ${i}`),
  "cc @alice <!-- no-mistakes:NM-9 --> <img src=x>",
  "```",
  "</details>",
  " Test Files  1 failed (1)",
].join("\n");

const REPRODUCED = finding({
  number: 1,
  severity: "error",
  title: "Totals lose cents",
  body: "Floating-point sums of prices drift.",
  reproducer: REPRODUCER,
  reproduction: "reproduced",
});
const DEMOTED_BROKEN = finding({
  number: 2,
  severity: "warning",
  demotedFrom: "error",
  line: 57,
  title: "Refund can exceed the charge",
  body: "Nothing caps the refund.",
  reproducer: { files: [], command: "mocha test/refund.js" },
  reproduction: "broken",
});
const DEMOTED = finding({ number: 3, severity: "warning", demotedFrom: "error", line: 80, title: "Race on retry" });
const NOT_REPRODUCED = finding({
  number: 4,
  severity: "error",
  status: "note",
  reviewId: null,
  commentId: null,
  line: 12,
  title: "Currency code unchecked",
  reproducer: { files: [], command: "npx vitest run test/currency.test.ts" },
  reproduction: "not-reproduced",
});
const DROPPED = finding({
  number: 5,
  severity: "error",
  status: "note",
  demotedFrom: "error",
  reviewId: null,
  line: 90,
  title: "Lock held across await",
});
const LEDGER = [REPRODUCED, DEMOTED_BROKEN, DEMOTED, NOT_REPRODUCED, DROPPED];

describe("finding comments with what the app ran", () => {
  it("reproduced: the command, how it failed, the end of its output — bounded, in a fence it cannot close, nothing live", async () => {
    const body = renderFindingComment(REPRODUCED, undefined, {
      command: REPRODUCER.command,
      why: "it exited 1",
      output: HOSTILE_OUTPUT,
    });
    await expect(visible(body)).toMatchFileSnapshot(snap("finding-comment-reproduced"));
    expect(body).toContain("**✅ Reproduced** — the app ran `npx vitest run test/invoice.test.ts` on this head");
    expect(body).not.toMatch(LIVE_MENTION);
    const marker = "\n<!-- no-mistakes:NM-1 -->";
    expect(body.endsWith(marker)).toBe(true); // the bot's own marker, last
    const fenced = body.slice(body.indexOf("````text\n"), body.lastIndexOf("\n````") + 5);
    expect(fenced).not.toMatch(LIVE_TAG); // the output's marker, tag and closer are inert
    expect(fenced.split("\n````")).toHaveLength(2); // its own fence does not close the block
    expect(body).toContain("````text\n"); // a fence longer than the output's own
    expect(body).not.toContain("at frame 19\n"); // the output's end only, folded
    expect(body).toContain("at frame 24\n");
    expect(body).toContain("<details><summary>The end of its output</summary>\n\n````text\n");
    expect(body).toContain(" Test Files  1 failed (1)");
  });

  it("a broken reproducer on an error nothing reproduced: unverified twice over, posted as a warning", async () => {
    const body = renderFindingComment(DEMOTED_BROKEN, undefined, {
      command: "mocha test/refund.js",
      why: "its command could not run (exit 127)",
      output: "sh: 1: mocha: not found",
    });
    await expect(visible(body)).toMatchFileSnapshot(snap("finding-comment-unverified"));
    expect(body).toMatch(/^\*\*🟡 warning · NM-2 · /);
    expect(body).toContain("_Unverified: its reproducer `mocha test/refund.js` did not run as a test");
    expect(body).toContain("_Unverified: raised as error, posted as warning");
  });
});

describe("the summary and the check run count reproduced findings apart", () => {
  const turns = [turn({ id: 1, role: "reviewer", trigger: "opened", headSha: HEAD_SHA, sessionMode: "started" })];

  it("summary: reproduced and unverified in the table, not-reproduced and dropped errors as notes of their own", async () => {
    const summary = renderSummary({ findings: LEDGER, turns, lastReviewedSha: HEAD_SHA, failOn: "error" });
    await expect(visible(summary)).toMatchFileSnapshot(snap("summary-reproductions"));
    expect(summary).toContain("**3 open** (1 reproduced)");
    expect(summary).toContain("**Not reproduced**");
    expect(summary).toContain("**Unverified errors**");
    expect(summary).not.toContain("on code unchanged since an earlier review");
  });

  it("summary with no checks configured: the proposed block once, folded", async () => {
    const proposal = "checks:\n  setup:\n    - run: npm ci\n  commands:\n    - { name: test, run: npm run test }";
    const summary = renderSummary({
      findings: [REPRODUCED],
      turns,
      lastReviewedSha: HEAD_SHA,
      failOn: "error",
      proposedChecks: proposal,
    });
    await expect(visible(summary)).toMatchFileSnapshot(snap("summary-proposed-checks"));
    expect(summary.split("<details><summary>No <code>checks</code>")).toHaveLength(2);
    expect(summary).toContain("```yaml\n" + proposal + "\n```");
  });

  it("check run: reproduced counted in the title, each open finding's proof in the table, notes counted by kind", async () => {
    const output = renderCheckOutput(LEDGER, []);
    const text = `conclusion: ${checkConclusion(LEDGER, "error")}\ntitle: ${output.title}\n---\n${output.summary}\n`;
    await expect(visible(text)).toMatchFileSnapshot(snap("check-reproductions"));
    expect(output.title).toBe("3 open findings (1 error, 2 warning) · 1 reproduced");
    expect(checkConclusion(LEDGER, "error")).toBe("failure");
    // with the error demoted and the reproduced one fixed, nothing fails
    expect(checkConclusion([DEMOTED, DEMOTED_BROKEN], "error")).toBe("success");
  });
});
