import type { RepositoryDecision } from "../../db/repository-decisions.js";
import { pullRequestAnchor } from "../../domain/pull-request-anchor.js";
import { neutralizeAgentText } from "../../text/neutralize-agent-text.js";
import { inlineCode, tableCell } from "../../text/sanitize-markdown.js";

/** One decision as a line of the learnings file, and the key that says it is already there. */
export interface LearningLine {
  key: string;
  /** Who decided (their login, as the line shows it). */
  by: string;
  line: string;
}

/** The provenance link's text (`[#12 NM-3](…)`): one line per finding, whatever was decided. */
const PROVENANCE = /\[#(\d+) NM-(\d+)\]\(/g;
const MARKDOWN = /[\\`*_[\]()!#~<>]/g;
/** A line's end as learningLine writes it: untrusted text before it cannot forge one (its brackets are escaped). */
const DECIDER = / — (?:dismissed|argued|confirmed|merged) by (\S+) in \[#\d+ NM-\d+\]\([^()\s]*\)$/;

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

/** Where the decision was made: the comment the ledger recorded, else the finding's thread. */
function decidedWhere(repoUrl: string, d: RepositoryDecision): string {
  if (d.anchor && pullRequestAnchor.isValid(d.anchor))
    return `${repoUrl.replace(/\/+$/, "")}/pull/${d.prNumber}${d.anchor}`;
  return threadUrl(repoUrl, d);
}

function decided(d: RepositoryDecision): string {
  const why = (reason: string | null) => (reason?.trim() ? `: ${plainLine(reason, 300)}` : "");
  if (d.how === "dismissed") return `Dismissed${why(d.dismissReason)}`;
  if (d.how === "merged") return "Fixed before the pull request was merged";
  return `Withdrawn by the reviewer${why(d.rulingReason)}`;
}

/** `- <what was decided> — "<title>" (<severity>, <path>) — <how> by <login> in [#<pr> NM-<n>](<where>)` */
export function learningLine(d: RepositoryDecision, repoUrl: string): LearningLine {
  const where = d.path ? `, ${inlineCode(d.path)}` : "";
  const by = plainLine(d.decidedBy, 100);
  const provenance = `${d.how} by ${by} in [${key(d.prNumber, d.number)}](${decidedWhere(repoUrl, d)})`;
  return {
    key: key(d.prNumber, d.number),
    by,
    line: `- ${decided(d)} — "${plainLine(d.title)}" (${plainLine(d.severity, 20)}${where}) — ${provenance}`,
  };
}

/** Who decided a line of the learnings file, as the line names it (a line written by hand names no one). */
export function deciderOf(line: string): string | undefined {
  return DECIDER.exec(line)?.[1];
}
