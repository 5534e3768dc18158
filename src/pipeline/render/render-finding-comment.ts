import type { Finding } from "../../db/schema.js";
import { findingId } from "../../domain/finding-id.js";
import { findingMarker, SEVERITY_ICON } from "../../text/labels.js";
import { suggestionBlock } from "../../github/suggestion-block.js";
import { renderReproduction, type ShownReproduction } from "./render-reproduction.js";
import { postableSuggestion, sanitizeMarkdown } from "../../text/sanitize-markdown.js";

/** Said in place of a suggested change that could not be posted safely; the finding itself stands. */
export const SUGGESTION_LEFT_OUT =
  "_A suggested change was left out: it held text that is not posted (a hidden marker, invisible or control characters)._";

/**
 * An inline review comment for a finding. `suggestion` is the agent's replacement text for the
 * commented lines, when a suggested change applies: posted byte for byte in a ```suggestion block,
 * or left out with a note when it cannot be posted safely (see postableSuggestion). `reproduction`: its
 * reproducer's run on this head, when the app ran one (see renderReproduction).
 */
export function renderFindingComment(finding: Finding, suggestion?: string, reproduction?: ShownReproduction): string {
  const id = findingId(finding.number);
  const parts = [
    `**${SEVERITY_ICON[finding.severity] ?? ""} ${finding.severity} · ${id} · ${sanitizeMarkdown(finding.title)}**`,
    "",
    sanitizeMarkdown(finding.body),
  ];
  for (const line of renderReproduction(finding, reproduction)) parts.push("", line);
  if (suggestion !== undefined) {
    const postable = postableSuggestion(suggestion);
    parts.push("", postable === undefined ? SUGGESTION_LEFT_OUT : suggestionBlock(postable));
  }
  parts.push("", findingMarker(id));
  return parts.join("\n");
}
