import type { SessionRow } from "../views/run-view.js";
import { formatCount } from "./format-count.js";
import { html } from "./html.js";
import type { HtmlSafe } from "./html-safe.js";
import { timeElement } from "./time-element.js";
import { untrustedText } from "./untrusted-text.js";

/** Each role's current agent session in the run: its id, size, and the overhead its first request carried. */
export function runSessionsTable(sessions: SessionRow[]): HtmlSafe {
  if (!sessions.length) return html`<p class="empty">No stored sessions.</p>`;
  return html`<div class="table-scroll">
    <table class="sessions">
      <thead>
        <tr>
          <th>Role</th>
          <th>Agent</th>
          <th>Session id</th>
          <th class="num">Size (tokens)</th>
          <th class="num">Overhead (tokens)</th>
          <th class="num">Turns</th>
          <th>Updated</th>
        </tr>
      </thead>
      <tbody>
        ${sessions.map(
          (s) =>
            html`<tr>
              <td>${untrustedText(s.role)}</td>
              <td>${untrustedText(s.agent)}</td>
              <td><code>${untrustedText(s.sessionId)}</code></td>
              <td class="num">${formatCount(s.contextTokens)}</td>
              <td class="num">${formatCount(s.overheadTokens)}</td>
              <td class="num">${formatCount(s.turns)}</td>
              <td>${timeElement(s.updatedAt)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
