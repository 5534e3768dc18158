import { findingId } from "../../domain/finding-id.js";
import { sanitizeMarkdown } from "../../text/sanitize-markdown.js";

/** What the fixer said, for a reply: the findings it declined (and why), then its summary as a quote. */
export function fixerNotes(declined: { number: number; reason: string }[], summary: string): string {
  return declinedText(declined) + summaryText(summary);
}

function declinedText(declined: { number: number; reason: string }[]): string {
  if (declined.length === 0) return "";
  return `\n\nDeclined:\n${declined.map((d) => `- ${findingId(d.number)}: ${sanitizeMarkdown(d.reason) || "no reason given"}`).join("\n")}`;
}

function summaryText(summary: string): string {
  return summary ? `\n\n> ${sanitizeMarkdown(summary).replace(/\n/g, "\n> ")}` : "";
}
