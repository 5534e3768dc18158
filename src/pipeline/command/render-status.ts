import type { RepoConfig } from "../../config/repo/repo-config.js";
import type { OutcomeRates } from "../../db/repository-outcome-rates.js";
import type { Finding, Run, RunAgentSession, Turn } from "../../db/schema.js";
import { SCORECARD_WEEKS } from "../../domain/scorecard-period.js";
import { spendOf } from "../sessions/check-budget.js";
import { findingId } from "../../domain/finding-id.js";
import { SEVERITY_ICON, shortSha, where } from "../../text/labels.js";
import { tableCell } from "../../text/sanitize-markdown.js";

/** The answer to `/no-mistakes status`: what the run knows, and the repository's scorecard line when given. */
export function renderStatus(
  run: Run,
  findings: Finding[],
  sessions: RunAgentSession[],
  turns: Turn[],
  config: RepoConfig,
  rates?: OutcomeRates,
): string {
  const open = findings.filter((f) => f.status === "open" || f.status === "fix-pushed");
  const spend = spendOf(turns);
  const lines = [
    `**no-mistakes status** · ${run.state === "paused" ? "automatic reviews paused" : `run ${run.state}`} · last reviewed ${run.lastReviewedSha ? shortSha(run.lastReviewedSha) : "never"}`,
    "",
    `**Open findings (${open.length})**`,
  ];
  for (const f of open)
    lines.push(
      `- ${SEVERITY_ICON[f.severity] ?? ""} ${findingId(f.number)} ${where(f.path, f.line, f.endLine)} ${tableCell(f.title)}${f.status === "fix-pushed" ? " _(fix pushed)_" : ""}`,
    );
  if (open.length === 0) lines.push("- none");
  const notes = findings.filter((f) => f.status === "note");
  if (notes.length > 0) {
    lines.push("", `**Notes (${notes.length})** — on code unchanged since an earlier review; not raised, not counted`);
    for (const f of notes)
      lines.push(
        `- ${SEVERITY_ICON[f.severity] ?? ""} ${findingId(f.number)} ${where(f.path, f.line, f.endLine)} ${tableCell(f.title)}`,
      );
  }
  lines.push("", "**Sessions**");
  for (const role of ["reviewer", "fixer"] as const) {
    const session = sessions.find((s) => s.role === role);
    const last = [...turns].reverse().find((t) => t.role === role);
    lines.push(
      `- ${role}: ${session ? `${session.agent} session \`${session.sessionId.slice(0, 12)}\`${session.contextTokens ? ` (${session.contextTokens.toLocaleString("en-US")} tokens)` : ""}` : "none stored"}${last ? ` · last turn ${last.sessionMode ?? "—"} (${last.status})` : ""}`,
    );
  }
  const limits = [`fix rounds ${spend.fixRounds}/${config.fix.max_rounds}`];
  if (config.limits.max_turns !== undefined) limits.push(`turns ${spend.turns}/${config.limits.max_turns}`);
  if (config.limits.max_cost_usd !== undefined)
    limits.push(`spend $${spend.costUsd.toFixed(2)}/$${config.limits.max_cost_usd.toFixed(2)}`);
  lines.push("", `**Spend** · ${spend.turns} turns · $${spend.costUsd.toFixed(2)} · ${limits.join(" · ")}`);
  if (rates) lines.push("", scorecardLine(rates));
  return lines.join("\n");
}

/** This repository's addressed and noise rates over the scorecard's weeks. */
function scorecardLine({ posted, fixed, noise }: OutcomeRates): string {
  const head = `**Scorecard** · this repository, last ${SCORECARD_WEEKS} weeks`;
  if (posted === 0) return `${head}: nothing posted yet`;
  const percent = (n: number) => `${Math.round((n * 100) / posted)}%`;
  return `${head}: ${percent(fixed)} addressed (${fixed} of ${posted} posted findings fixed) · ${percent(noise)} noise (${noise} dismissed or withdrawn)`;
}
