import type { Finding } from "../../db/schema.js";
import { findingId } from "../../domain/finding-id.js";
import { findingMarker, SEVERITY_ICON } from "./labels.js";
import { sanitizeMarkdown } from "./sanitize-markdown.js";

/** An inline review comment for a finding; `suggestion` is a ready ```suggestion block when it applies. */
export function renderFindingComment(finding: Finding, suggestion?: string): string {
  const id = findingId(finding.number);
  const parts = [
    `**${SEVERITY_ICON[finding.severity] ?? ""} ${finding.severity} · ${id} · ${sanitizeMarkdown(finding.title)}**`,
    "",
    sanitizeMarkdown(finding.body),
  ];
  if (suggestion) parts.push("", suggestion);
  parts.push("", findingMarker(id));
  return parts.join("\n");
}
