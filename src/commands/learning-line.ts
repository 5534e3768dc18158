import type { RepositoryDecision } from "../db/repository-decisions.js";
import { neutralizeAgentText } from "../pipeline/fix/neutralize-agent-text.js";
import { inlineCode, tableCell } from "../pipeline/render/sanitize-markdown.js";

/** One decision as a line of the learnings file, and the key that says it is already there. */
export interface LearningLine {
  key: string;
  line: string;
}

/** The provenance link's text (`[#12 NM-3](…)`): one line per finding, whatever was decided. */
const PROVENANCE = /\[#(\d+) NM-(\d+)\]\(/g;
const MARKDOWN = /[\\`*_[\]()!#~<>]/g;

function key(pr: number, finding: number): string {
  return `#${pr} NM-${finding}`;
}

/** The decisions a learnings file already holds (by the provenance of its lines). */
export function learnedKeys(text: string | undefined): Set<string> {
  return new Set([...(text ?? "").matchAll(PROVENANCE)].map((m) => key(Number(m[1]), Number(m[2]))));
}

/**
 * PR- or model-derived text made inert on one line: no mention, no closing keyword, no trailer, no
 * markdown (links, images, emphasis, HTML, headings), no invisible characters; cut at `max`.
 */
export function plainLine(text: string, max = 200): string {
  return tableCell(neutralizeAgentText(text).replace(/\s+/g, " ").replace(MARKDOWN, "\\$&"), max);
}

/** The finding's thread on GitHub: its inline comment, else the review that carried it, else the pull request. */
export function threadUrl(repoUrl: string, d: Pick<RepositoryDecision, "prNumber" | "commentId" | "reviewId">): string {
  const pull = `${repoUrl.replace(/\/+$/, "")}/pull/${d.prNumber}`;
  if (d.commentId) return `${pull}#discussion_r${d.commentId}`;
  if (d.reviewId) return `${pull}#pullrequestreview-${d.reviewId}`;
  return pull;
}

function decided(d: RepositoryDecision): string {
  const why = (reason: string | null) => (reason?.trim() ? `: ${plainLine(reason, 300)}` : "");
  if (d.status === "dismissed") return `Dismissed${why(d.dismissReason)}`;
  if (d.status === "withdrawn") return `Withdrawn by the reviewer${why(d.rulingReason)}`;
  return `Upheld after discussion${why(d.rulingReason)}`;
}

/** `- <what was decided> — "<title>" (<severity>, <path>) — [#<pr> NM-<n>](<thread>)` */
export function learningLine(d: RepositoryDecision, repoUrl: string): LearningLine {
  const where = d.path ? `, ${inlineCode(d.path)}` : "";
  const provenance = `[${key(d.prNumber, d.number)}](${threadUrl(repoUrl, d)})`;
  return {
    key: key(d.prNumber, d.number),
    line: `- ${decided(d)} — "${plainLine(d.title)}" (${plainLine(d.severity, 20)}${where}) — ${provenance}`,
  };
}
