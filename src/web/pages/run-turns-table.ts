import { shortSha } from "../../text/labels.js";
import type { TurnRow } from "../views/run-view.js";
import { formatCount } from "./format-count.js";
import { formatDuration } from "./format-duration.js";
import { formatMilliseconds } from "./format-milliseconds.js";
import { formatUsd } from "./format-usd.js";
import { html } from "./html.js";
import { classToken } from "./class-token.js";
import type { HtmlSafe } from "./html-safe.js";
import { link } from "./link.js";
import { sessionModeMeaning } from "./session-mode-meaning.js";
import { timeElement } from "./time-element.js";
import { untrustedText } from "./untrusted-text.js";

/**
 * The run's timeline: one row per agent turn, oldest first, each anchored at #turn-<id>; beside the agent's
 * duration, the time the turn spent running the repository's code (its setups, checks and reproducers).
 * `repositoryUrl` is the repository on GitHub (a turn's commit links under it).
 */
export function runTurnsTable(turns: TurnRow[], repositoryUrl: string): HtmlSafe {
  if (!turns.length) return html`<p class="empty">No agent turns yet.</p>`;
  return html`<div class="table-scroll">
    <table class="turns">
      <thead>
        <tr>
          <th class="num">Turn</th>
          <th>Started</th>
          <th>Role</th>
          <th>Trigger</th>
          <th>Commit</th>
          <th>Agent</th>
          <th>Session</th>
          <th class="num">Tokens in</th>
          <th class="num">Tokens out</th>
          <th class="num">Cache read</th>
          <th class="num">Cache write</th>
          <th class="num">Context</th>
          <th class="num">Cost</th>
          <th class="num">Duration</th>
          <th class="num">Execution time</th>
          <th>Status</th>
        </tr>
      </thead>
      <tbody>
        ${turns.map((t) => turnRow(t, repositoryUrl))}
      </tbody>
    </table>
  </div>`;
}

function turnRow(t: TurnRow, repositoryUrl: string): HtmlSafe {
  const mode = t.sessionMode ?? "starting";
  const commit = /^[0-9a-f]{7,64}$/i.test(t.headSha)
    ? link(`${repositoryUrl}/commit/${t.headSha}`, shortSha(t.headSha), "external")
    : untrustedText(shortSha(t.headSha));
  return html`<tr id="turn-${t.id}">
    <td class="num">${t.id}</td>
    <td>${timeElement(t.startedAt)}</td>
    <td>${untrustedText(t.role)}</td>
    <td>${untrustedText(t.trigger)}</td>
    <td class="sha">${commit}</td>
    <td>${untrustedText(t.agent)}</td>
    <td>
      <strong class="session-mode">${untrustedText(mode)}</strong>
      <span class="muted">${sessionModeMeaning(t.sessionMode)}</span
      >${t.fallbackReason && html`<div class="fallback-reason">${untrustedText(t.fallbackReason)}</div>`}${t.sessionId && html`<div class="muted"><code>${untrustedText(t.sessionId)}</code></div>`}
    </td>
    <td class="num">${formatCount(t.tokensIn)}</td>
    <td class="num">${formatCount(t.tokensOut)}</td>
    <td class="num">${formatCount(t.cacheReadTokens)}</td>
    <td class="num">${formatCount(t.cacheWriteTokens)}</td>
    <td class="num">${formatCount(t.contextTokens)}</td>
    <td class="num">${formatUsd(t.costUsd)}</td>
    <td class="num">${formatDuration(t.startedAt, t.finishedAt)}</td>
    <td class="num">${executionTime(t)}</td>
    <td>
      <span class="status status-${classToken(t.status)}">${untrustedText(t.status)}</span>${
        t.error &&
        html`<details class="error">
          <summary>error</summary>
          <pre>${untrustedText(t.error)}</pre>
        </details>`
      }
    </td>
  </tr>`;
}

/** The turn's executions' time added up, linking to them, with how many there were; a dash for none. */
function executionTime(t: TurnRow): HtmlSafe {
  if (t.executions === 0) return html`<span class="muted">—</span>`;
  return link(
    `#executions-turn-${t.id}`,
    `${formatMilliseconds(t.executionMs)} (${formatCount(t.executions)} run${t.executions === 1 ? "" : "s"})`,
  );
}
