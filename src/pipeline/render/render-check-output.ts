import type { Finding } from "../../db/schema.js";
import { findingId } from "../finding-id.js";
import { SEVERITY_ICON, where } from "./labels.js";
import { sanitizeMarkdown, tableCell } from "./sanitize-markdown.js";

const RANK: Record<string, number> = { info: 1, warning: 2, error: 3 };

/** Open findings at or above the configured severity fail the check; `never` never does. */
export function checkConclusion(findings: Finding[], failOn: "error" | "warning" | "info" | "never"): "success" | "failure" {
  if (failOn === "never") return "success";
  const blocking = findings.filter((f) => (f.status === "open" || f.status === "fix-pushed") && (RANK[f.severity] ?? 0) >= RANK[failOn]!);
  return blocking.length > 0 ? "failure" : "success";
}

/** The check run's title and markdown summary. */
export function renderCheckOutput(findings: Finding[], notes: string[]): { title: string; summary: string } {
  const open = findings.filter((f) => f.status === "open" || f.status === "fix-pushed");
  const bySeverity = (s: string) => open.filter((f) => f.severity === s).length;
  const title =
    open.length === 0
      ? "No open findings"
      : `${open.length} open finding${open.length === 1 ? "" : "s"} (${["error", "warning", "info"]
          .map((s) => [s, bySeverity(s)] as const)
          .filter(([, n]) => n > 0)
          .map(([s, n]) => `${n} ${s}`)
          .join(", ")})`;
  const lines: string[] = [];
  if (open.length > 0) {
    lines.push("| id | severity | where | finding |", "| --- | --- | --- | --- |");
    for (const f of open) lines.push(`| ${findingId(f.number)} | ${SEVERITY_ICON[f.severity] ?? ""} ${f.severity} | ${where(f.path, f.line, f.endLine).replace(/\|/g, "\\|")} | ${tableCell(f.title)} |`);
  } else {
    lines.push("Nothing open. 🎉");
  }
  for (const note of notes) lines.push("", `> ${sanitizeMarkdown(note).replace(/\n/g, "\n> ")}`);
  return { title, summary: lines.join("\n") };
}
