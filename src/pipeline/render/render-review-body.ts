import type { Finding } from "../../db/schema.js";
import { findingId } from "../../domain/finding-id.js";
import { reviewMarker, SEVERITY_ICON, shortSha, where } from "../../text/labels.js";
import { proofLabel } from "./proof-label.js";
import { inlineCode, sanitizeMarkdown } from "../../text/sanitize-markdown.js";

export interface ReviewBodyInput {
  headSha: string;
  /** What was reviewed: the whole PR, the new commits since `from`, or the whole PR after a rewrite. */
  mode: "full" | "incremental" | "rewritten";
  from: string;
  /** Set when the base branch was merged in (or the PR rebased onto it) since `from`: only the PR's own changes were reviewed. */
  baseMerged?: { from: string; to: string; via: "merge" | "rebase" };
  summary: string;
  /** Findings posted in the body rather than inline, with why. */
  inBody: { finding: Finding; reason: string }[];
  resolved: Finding[];
  /** Called resolved by the reviewer although their code did not change: still open. */
  claimed?: Finding[];
  dropped: { title: string; path: string; reason: string }[];
  notes: string[];
}

const MODE_LINE = {
  full: () => "the whole pull request",
  incremental: (from: string) => `the commits since ${shortSha(from)}`,
  rewritten: () => "the whole pull request again (its history was rewritten)",
};

/** The review's body: the reviewer's summary, and every finding that could not be an inline comment. */
export function renderReviewBody(input: ReviewBodyInput): string {
  const merged = input.baseMerged
    ? ` — the PR's own changes only (the base moved from ${shortSha(input.baseMerged.from)} to ${shortSha(input.baseMerged.to)} by a ${input.baseMerged.via})`
    : "";
  const lines = [
    `### no-mistakes reviewed ${MODE_LINE[input.mode](input.from)} at ${shortSha(input.headSha)}${merged}`,
    "",
    sanitizeMarkdown(input.summary),
  ];
  if (input.inBody.length > 0) {
    lines.push("", `**Findings outside the diff (${input.inBody.length})**`, "");
    for (const { finding: f, reason } of input.inBody) {
      lines.push(
        `- ${SEVERITY_ICON[f.severity] ?? ""} **${findingId(f.number)}** ${where(f.path, f.line, f.endLine)} — **${sanitizeMarkdown(f.title)}**: ${sanitizeMarkdown(f.body).replace(/\n+/g, " ")} _(${[reason, proofLabel(f)].filter(Boolean).join("; ")})_`,
      );
    }
  }
  if (input.resolved.length > 0) {
    lines.push("", `**Resolved:** ${input.resolved.map((f) => findingId(f.number)).join(", ")}`);
  }
  if (input.claimed && input.claimed.length > 0) {
    lines.push(
      "",
      `**Claimed resolved, unverified:** ${input.claimed.map((f) => findingId(f.number)).join(", ")} — the reviewer called ${input.claimed.length === 1 ? "it" : "them"} resolved, but no change touched ${input.claimed.length === 1 ? "its" : "their"} code since ${input.claimed.length === 1 ? "it was" : "they were"} raised, so ${input.claimed.length === 1 ? "it stays" : "they stay"} open.`,
    );
  }
  if (input.dropped.length > 0) {
    lines.push(
      "",
      `<details><summary>${input.dropped.length} reported finding${input.dropped.length === 1 ? "" : "s"} could not be placed and ${input.dropped.length === 1 ? "was" : "were"} not posted</summary>`,
      "",
    );
    for (const d of input.dropped)
      lines.push(`- ${inlineCode(d.path)} — ${sanitizeMarkdown(d.title)}: ${sanitizeMarkdown(d.reason)}`);
    lines.push("", "</details>");
  }
  for (const note of input.notes) lines.push("", `> ${sanitizeMarkdown(note).replace(/\n/g, "\n> ")}`);
  lines.push("", reviewMarker(input.headSha));
  return lines.join("\n");
}
