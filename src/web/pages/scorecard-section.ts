import {
  addressedRate,
  costPerAddressed,
  noiseRate,
  type AgentModelRow,
  type OutcomeCounts,
  type Scorecard,
  type ScorecardGroup,
} from "../views/scorecard-view.js";
import { formatCount } from "./format-count.js";
import { formatDuration } from "./format-duration.js";
import { formatRate } from "./format-rate.js";
import { formatUsd } from "./format-usd.js";
import { html } from "./html.js";
import type { HtmlSafe } from "./html-safe.js";
import { postedTrendChart, rateTrendChart } from "./trend-chart.js";
import { untrustedText } from "./untrusted-text.js";

/** A median time: `42 s`, `3 m 05 s`, `1 h 02 m`, `3 d 04 h`; `–` without one. */
function seconds(s: number | null): string {
  if (s === null) return "–";
  if (s < 86_400) return formatDuration(new Date(0), new Date(s * 1000));
  const hours = Math.round(s / 3600);
  return `${Math.floor(hours / 24)} d ${String(hours % 24).padStart(2, "0")} h`;
}
const usdOrDash = (usd: number | null) => (usd === null ? "–" : formatUsd(usd));

/**
 * The scorecard: what became of the findings posted over the period — the team's own verdicts — and what
 * they cost, overall, per agent and model, severity, reproduction and (`byRepository`, the operator's)
 * repository, with the weekly trends. Findings have no category: there is no breakdown by one.
 */
export function scorecardSection(card: Scorecard, options: { byRepository?: boolean } = {}): HtmlSafe {
  const resumed = card.turns === 0 ? null : card.resumedTurns / card.turns;
  const fixTime = card.secondsToOutcome.find((s) => s.outcome === "fixed")?.seconds ?? null;
  return html`<section class="scorecard" aria-labelledby="scorecard">
    <h2 id="scorecard">Scorecard</h2>
    <p class="muted">
      Findings raised and turns run since ${card.since.toISOString().slice(0, 10)} (${card.weeks.length} weeks).
      Addressed: fixed ÷ posted. Noise: dismissed or withdrawn ÷ posted.
    </p>
    <dl class="facts">
      <dt>Posted</dt>
      <dd>${formatCount(card.total.posted)} (${formatCount(card.total.open)} still open)</dd>
      <dt>Addressed</dt>
      <dd class="addressed">${formatRate(addressedRate(card.total))} (${formatCount(card.total.fixed)} fixed)</dd>
      <dt>Noise</dt>
      <dd class="noise">
        ${formatRate(noiseRate(card.total))} (${formatCount(card.total.dismissed)} dismissed,
        ${formatCount(card.total.withdrawn)} withdrawn)
      </dd>
      <dt>Left</dt>
      <dd>${formatCount(card.total.openAtMerge)} open at merge, ${formatCount(card.total.abandoned)} abandoned</dd>
      <dt>Spend</dt>
      <dd>
        ${formatUsd(card.spendUsd)} over ${formatCount(card.turns)} turns;
        ${usdOrDash(costPerAddressed(card.spendUsd, card.total.fixed))} per addressed finding
      </dd>
      <dt>Push to review</dt>
      <dd>${seconds(card.pushToReviewSeconds)} (median)</dd>
      <dt>Time to fix</dt>
      <dd>${seconds(fixTime)} (median, from the finding to its fix)</dd>
      <dt>Resumed turns</dt>
      <dd>${formatRate(resumed)} of ${formatCount(card.turns)}</dd>
    </dl>
    <div class="charts">
      <figure>
        ${rateTrendChart(card.weeks)}
        <figcaption>
          <span class="key addressed">addressed</span> and <span class="key noise">noise</span> rate per week
        </figcaption>
      </figure>
      <figure>
        ${postedTrendChart(card.weeks)}
        <figcaption>findings posted per week</figcaption>
      </figure>
    </div>
    ${agentModelTable(card.byAgentModel)} ${groupTable("Severity", card.bySeverity)}
    ${groupTable("Reproduction", card.byReproduction)}
    ${options.byRepository && groupTable("Repository", card.byRepository)}
  </section>`;
}

function outcomeCells(c: OutcomeCounts): HtmlSafe {
  return html`<td class="num">${formatCount(c.posted)}</td>
    <td class="num">${formatCount(c.fixed)}</td>
    <td class="num">${formatRate(addressedRate(c))}</td>
    <td class="num">${formatRate(noiseRate(c))}</td>`;
}

const OUTCOME_HEADS = html`<th class="num">Posted</th>
  <th class="num">Fixed</th>
  <th class="num">Addressed</th>
  <th class="num">Noise</th>`;

function agentModelTable(rows: AgentModelRow[]): HtmlSafe | undefined {
  if (rows.length === 0) return html`<p class="empty">Nothing reviewed in this period.</p>`;
  return html`<div class="table-scroll">
    <table class="scorecard-agents">
      <thead>
        <tr>
          <th>Agent</th>
          <th>Model</th>
          ${OUTCOME_HEADS}
          <th class="num">Turns</th>
          <th class="num">Resumed</th>
          <th class="num">Spend</th>
          <th class="num">Per addressed</th>
          <th class="num">Push to review</th>
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          (r) =>
            html`<tr>
              <td>${untrustedText(r.agent)}</td>
              <td>${r.model === null ? html`<span class="muted">unknown</span>` : untrustedText(r.model)}</td>
              ${outcomeCells(r)}
              <td class="num">${formatCount(r.turns)}</td>
              <td class="num">${formatRate(r.turns === 0 ? null : r.resumedTurns / r.turns)}</td>
              <td class="num">${formatUsd(r.spendUsd)}</td>
              <td class="num">${usdOrDash(costPerAddressed(r.spendUsd, r.fixed))}</td>
              <td class="num">${seconds(r.pushToReviewSeconds)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

function groupTable(title: string, rows: ScorecardGroup[]): HtmlSafe | undefined {
  if (rows.length === 0) return undefined;
  return html`<div class="table-scroll">
    <table class="scorecard-groups">
      <thead>
        <tr>
          <th>${title}</th>
          ${OUTCOME_HEADS}
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          (r) =>
            html`<tr>
              <td>${untrustedText(r.label)}</td>
              ${outcomeCells(r)}
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
