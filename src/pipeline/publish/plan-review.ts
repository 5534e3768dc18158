import type { Finding } from "../../db/schema.js";
import type { InlineComment } from "../../github/github-client.js";
import type { DiffIndex } from "../../github/parse-diff.js";
import { canSuggest, placeFinding, type BodyReason } from "../../github/place-finding.js";
import { findingId } from "../../domain/finding-id.js";
import { renderFindingComment } from "../render/render-finding-comment.js";
import type { ShownReproduction } from "../render/render-reproduction.js";
import { inlineCode } from "../../text/sanitize-markdown.js";

/** A finding going out as an inline comment. */
export interface PlannedComment {
  finding: Finding;
  comment: InlineComment;
}

export interface ReviewPlan {
  /** Finding number → its inline comment an earlier attempt already posted. */
  posted: Map<number, { id: number; nodeId: string }>;
  /** Findings to post inline, most severe first. */
  inline: PlannedComment[];
  /** Findings for the review body, with why each is not inline. */
  inBody: { finding: Finding; reason: string }[];
}

const REASON_TEXT: Record<BodyReason, string> = {
  "no-line": "no line given",
  "file-not-in-diff": "file not changed in this PR",
  "line-not-in-diff": "line not part of the diff",
  "deleted-file": "file deleted in this PR",
  binary: "binary file",
};

const RANK: Record<string, number> = { error: 0, warning: 1, info: 2 };

/** Why a finding is in the body: a changed file `ignore.paths` left out is said so, with its glob when known. */
function bodyReason(reason: BodyReason, path: string | null, ignored: ReadonlyMap<string, string | undefined>): string {
  if (reason !== "file-not-in-diff" || path === null || !ignored.has(path)) return REASON_TEXT[reason];
  const glob = ignored.get(path);
  return `file ignored by \`ignore.paths\`${glob === undefined ? "" : ` (${inlineCode(glob)})`}`;
}

/**
 * Where each finding of a review goes, most severe first: one whose comment an earlier attempt already
 * posted (`already`, by finding marker) keeps it; one on a diff line goes inline (with a suggestion block
 * when the replacement fits the lines), up to `maxComments`; the rest go into the body. `ignored`: the
 * changed files `ignore.paths` left out of the diff (with the glob, when known), said as the reason.
 * `reproductions`: the reproducer runs the comments show, by finding number.
 */
export function planReview(
  findings: Finding[],
  diff: DiffIndex,
  maxComments: number,
  already: ReadonlyMap<string, { id: number; nodeId: string }>,
  ignored: ReadonlyMap<string, string | undefined> = new Map(),
  reproductions: ReadonlyMap<number, ShownReproduction> = new Map(),
): ReviewPlan {
  const posted = new Map<number, { id: number; nodeId: string }>();
  const inline: PlannedComment[] = [];
  const inBody: { finding: Finding; reason: string }[] = [];
  const ordered = [...findings].sort(
    (a, b) => (RANK[a.severity] ?? 3) - (RANK[b.severity] ?? 3) || a.number - b.number,
  );
  for (const finding of ordered) {
    const earlier = already.get(findingId(finding.number));
    if (earlier) {
      posted.set(finding.number, earlier);
      continue;
    }
    const location = {
      path: finding.path ?? "",
      line: finding.line ?? undefined,
      endLine: finding.endLine ?? undefined,
    };
    const placement = placeFinding(diff, location);
    if (placement.kind === "body") {
      inBody.push({ finding, reason: bodyReason(placement.reason, finding.path, ignored) });
      continue;
    }
    if (inline.length >= maxComments) {
      inBody.push({ finding, reason: "over the inline comment limit" });
      continue;
    }
    const suggestion = finding.suggestion !== null && canSuggest(placement, location) ? finding.suggestion : undefined;
    inline.push({
      finding,
      comment: {
        path: placement.path,
        line: placement.line,
        startLine: placement.startLine,
        side: "RIGHT",
        body: renderFindingComment(finding, suggestion, reproductions.get(finding.number)),
      },
    });
  }
  return { posted, inline, inBody };
}
