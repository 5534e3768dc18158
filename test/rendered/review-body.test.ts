import { describe, expect, it } from "vitest";
import { findingMarkerPattern, reviewMarker } from "../../src/text/labels.js";
import { renderFindingComment, SUGGESTION_LEFT_OUT } from "../../src/pipeline/render/render-finding-comment.js";
import { renderReviewBody } from "../../src/pipeline/render/render-review-body.js";
import {
  BASE_SHA,
  finding,
  HEAD_SHA,
  HOSTILE_BODY,
  HOSTILE_TITLE,
  LIVE_MENTION,
  NEW_BASE_SHA,
  PREVIOUS_SHA,
  snap,
  visible,
  roundingFinding,
} from "./fixtures.js";

/** The posted GitHub review: its body, and the inline comment of each finding on a diff line. */

describe("review body", () => {
  it("first review of the whole PR: summary, findings outside the diff, dropped findings, a config note", async () => {
    const body = renderReviewBody({
      headSha: HEAD_SHA,
      mode: "full",
      from: BASE_SHA,
      summary:
        "The PR moves invoice totals to integer cents. The rounding in `applyDiscount` still uses floats, and the migration has no down step.",
      inBody: [
        {
          finding: finding({
            number: 3,
            severity: "error",
            path: "db/migrations/0042_cents.sql",
            line: null,
            title: "Migration cannot be rolled back",
            body: "There is no down migration.\n\nAdd one that converts cents back to decimal.",
          }),
          reason: "no line given",
        },
        {
          finding: finding({
            number: 4,
            severity: "info",
            path: "src/billing/legacy|total.ts",
            line: 10,
            endLine: 14,
            title: "Dead helper",
            body: "`legacyTotal` has no callers left.",
          }),
          reason: "file not changed in this PR",
        },
      ],
      resolved: [],
      dropped: [
        {
          title: "Secrets in the build log",
          path: "../outside/repo.txt",
          reason: "the path is outside the repository",
        },
      ],
      notes: [
        "⚠️ `.github/no-mistakes.yml` on the default branch has a problem, so defaults were used: review.fail_on: Invalid option",
      ],
    });

    await expect(visible(body)).toMatchFileSnapshot(snap("review-body-full"));
    expect(body.startsWith("### no-mistakes reviewed the whole pull request at 4f1c2d3\n")).toBe(true);
    // the reviewed head's marker, once, as the body's last line
    expect(body.split(reviewMarker(HEAD_SHA))).toHaveLength(2);
    expect(body.endsWith(`\n${reviewMarker(HEAD_SHA)}`)).toBe(true);
    // a finding in the body stays on one line of the list
    expect(body).toContain("There is no down migration. Add one that converts cents back to decimal.");
  });

  it("an incremental review after the base was merged in: resolved, claimed resolved but unverified", async () => {
    const body = renderReviewBody({
      headSha: HEAD_SHA,
      mode: "incremental",
      from: PREVIOUS_SHA,
      baseMerged: { from: BASE_SHA, to: NEW_BASE_SHA, via: "merge" },
      summary: "The new commits fix the rounding; the cache key still ignores the currency.",
      inBody: [],
      resolved: [finding({ number: 1, status: "fixed" }), finding({ number: 2, status: "fixed" })],
      claimed: [finding({ number: 5, claimedResolvedSha: HEAD_SHA })],
      dropped: [],
      notes: [
        "2 findings on code unchanged since the last review (9a8b7c6) were kept as notes in the summary, not raised.",
      ],
    });

    await expect(visible(body)).toMatchFileSnapshot(snap("review-body-incremental"));
    expect(body).toContain(
      "### no-mistakes reviewed the commits since 9a8b7c6 at 4f1c2d3 — the PR's own changes only (the base moved from 1111111 to 2222222 by a merge)",
    );
    expect(body).toContain("**Resolved:** NM-1, NM-2");
    expect(body).toContain("so it stays open.");
  });

  it("a review of a rewritten history, with a hostile summary from the agent", async () => {
    const body = renderReviewBody({
      headSha: HEAD_SHA,
      mode: "rewritten",
      from: BASE_SHA,
      summary: `Looks fine overall. ${HOSTILE_BODY}`,
      inBody: [
        {
          finding: finding({ number: 6, severity: "warning", title: HOSTILE_TITLE, body: HOSTILE_BODY }),
          reason: "over the inline comment limit",
        },
      ],
      resolved: [],
      claimed: [finding({ number: 7 }), finding({ number: 8 })],
      dropped: [{ title: "Ping @bob", path: "a`b.ts", reason: "<b>bold</b> reason" }],
      notes: [],
    });

    await expect(visible(body)).toMatchFileSnapshot(snap("review-body-hostile"));
    expect(body).not.toMatch(LIVE_MENTION);
    expect(body).not.toContain("<!-- no-mistakes:NM-9 -->");
    expect(body).not.toContain("<details><summary>hidden");
    // the agent's open fence is closed before the bot's own text, and the head's marker is the last line
    expect(body.endsWith(`\n${reviewMarker(HEAD_SHA)}`)).toBe(true);
    const fences = body.split("\n").filter((l) => /^ {0,3}```/.test(l));
    expect(fences.length % 2).toBe(0);
  });
});

describe("inline finding comment", () => {
  it("a warning with a suggestion block", async () => {
    const f = roundingFinding({
      path: "src/billing/invoice.ts",
      body: "`amount * rate` is a float: `0.1 + 0.2` cents are lost on large invoices.\n\nRound once, in integer cents.",
      suggestion: "  const discounted = Math.round(amountCents * (1 - rate));\n  return discounted;\n",
    });
    const body = renderFindingComment(f, f.suggestion!);

    await expect(visible(body)).toMatchFileSnapshot(snap("finding-comment-suggestion"));
    expect(body.startsWith("**🟡 warning · NM-2 · Discount rounds with floats**\n")).toBe(true);
    expect(body).toContain(
      "```suggestion\n  const discounted = Math.round(amountCents * (1 - rate));\n  return discounted;\n```",
    );
    expect(findingMarkerPattern().exec(body)?.[1]).toBe("NM-2");
  });

  it("a suggestion holding backticks gets a longer fence", async () => {
    const f = finding({
      number: 11,
      severity: "info",
      title: "Template literal in the log line",
      body: "Use a tagged template so the amount is escaped.",
      suggestion: 'log(md`total: ${"```"}${total}`);',
    });
    const body = renderFindingComment(f, f.suggestion!);

    await expect(visible(body)).toMatchFileSnapshot(snap("finding-comment-suggestion-backticks"));
    expect(body).toContain("````suggestion\n");
    expect(body.endsWith("````\n\n<!-- no-mistakes:NM-11 -->")).toBe(true);
  });

  it("a suggestion carrying the bot's marker is left out, the finding kept with a note", () => {
    const f = finding({
      number: 2,
      severity: "warning",
      title: "Discount rounds with floats",
      body: "Round once, in integer cents.",
      suggestion: "return Math.round(x);\n<!-- no-mistakes:NM-2 -->\n// @octocat",
    });
    const body = renderFindingComment(f, f.suggestion!);

    expect(body.match(/<!--\s*no-mistakes/gi)).toEqual(["<!-- no-mistakes"]);
    expect(findingMarkerPattern().exec(body)?.[1]).toBe("NM-2");
    expect(body).not.toContain("suggestion\n");
    expect(body).not.toContain("Math.round(x)");
    expect(body).toContain(SUGGESTION_LEFT_OUT);
    expect(
      body.startsWith("**🟡 warning · NM-2 · Discount rounds with floats**\n\nRound once, in integer cents.\n"),
    ).toBe(true);
  });

  it.each([
    ["spaced and cased otherwise", "x();\n<!--NO-MISTAKES : review:abc -->"],
    ["a bidi override (what the commit holds is not what it shows)", "const ok = user\u202e;"],
    ["a zero-width space", "const a\u200b = 1;"],
    ["a control character", "const a = '\u0007';"],
  ])("a suggestion with %s is left out", (_name, suggestion) => {
    const body = renderFindingComment(finding({ number: 4, suggestion }), suggestion);
    expect(body).toContain(SUGGESTION_LEFT_OUT);
    expect(body).not.toContain("suggestion\n");
    expect(body.match(/<!--\s*no-mistakes/gi)).toEqual(["<!-- no-mistakes"]);
  });

  it("a suggestion's @mention and HTML are posted byte for byte, inside a fence no line of it can close", () => {
    // GitHub neither links nor notifies @mentions inside a fenced code block, and renders no HTML there:
    // safe as long as the text cannot close the fence and go on as prose.
    const suggestion = "// cc @octocat <img src=x>\n```\n@everyone <details>\n````\n";
    const body = renderFindingComment(finding({ number: 5, suggestion }), suggestion);
    const lines = body.split("\n");
    const open = lines.findIndex((l) => /^`{3,}suggestion$/.test(l));
    const width = /^(`+)/.exec(lines[open]!)![1]!.length;
    expect(width).toBe(5);
    // CommonMark: the block ends at the first line of only >= width backticks (up to 3 spaces of indent).
    const close = lines.findIndex((l, i) => i > open && /^ {0,3}`+[ \t]*$/.test(l) && l.trim().length >= width);
    expect(lines.slice(open + 1, close).join("\n")).toBe(suggestion.slice(0, -1));
    // every mention and tag of the suggestion is inside the block; outside it, none
    const outside = [...lines.slice(0, open), ...lines.slice(close + 1)].join("\n");
    expect(outside).not.toMatch(LIVE_MENTION);
    expect(outside).not.toContain("<img");
    expect(outside).not.toContain("<details>");
    expect(lines.slice(close + 1).filter((l) => l !== "")).toEqual(["<!-- no-mistakes:NM-5 -->"]);
  });

  it("an empty suggestion still deletes the lines", () => {
    const body = renderFindingComment(finding({ number: 6, suggestion: "" }), "");
    expect(body).toContain("\n\n```suggestion\n```\n\n<!-- no-mistakes:NM-6 -->");
  });

  it("hostile title and body: no mention, no forged marker, no raw HTML, the fence closed before the marker", async () => {
    const f = finding({ number: 12, severity: "error", title: HOSTILE_TITLE, body: HOSTILE_BODY });
    const body = renderFindingComment(f);

    await expect(visible(body)).toMatchFileSnapshot(snap("finding-comment-hostile"));
    expect(body).not.toMatch(LIVE_MENTION);
    expect(body).not.toContain("<details>");
    expect(body).not.toContain("<img");
    // exactly one marker, the bot's own, on the last line; the forged NM-9 is inert text
    expect(body.match(/<!-- no-mistakes:[^>]*-->/g)).toEqual(["<!-- no-mistakes:NM-12 -->"]);
    expect(findingMarkerPattern().exec(body)?.[1]).toBe("NM-12");
    // the agent's ```js fence is closed, so the marker is not inside a code block
    const lines = body.split("\n");
    expect(lines.at(-3)).toBe("```");
  });
});
