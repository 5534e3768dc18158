import { findingId } from "../../domain/finding-id.js";
import { shortSha } from "../../text/labels.js";
import type { ExecutionRow } from "../views/run-view.js";
import { classToken } from "./class-token.js";
import { formatCount } from "./format-count.js";
import { formatMilliseconds } from "./format-milliseconds.js";
import { html } from "./html.js";
import type { HtmlSafe } from "./html-safe.js";
import { link } from "./link.js";
import { untrustedText } from "./untrusted-text.js";

/** Terminal colour and cursor sequences (ESC [ … final byte): the page shows the text without them. */
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

/**
 * One run of the repository's own code: its outcome, what it was (kind, phase, the commit), the command,
 * exit code, duration and whether the setup came from the cache; its output's end folded, as text (it is the
 * PR author's), with how much of the stored output it is. `withTurn` links the turn that ran it.
 */
export function executionItem(e: ExecutionRow, withTurn = false): HtmlSafe {
  const exit = e.exitCode === null ? "no exit code" : `exit ${e.exitCode}`;
  return html`<li class="execution">
    <span class="status status-${classToken(e.outcome)}">${untrustedText(e.outcome)}</span>
    <strong>${untrustedText(e.kind)}</strong
    >${e.name !== e.command && e.name !== e.kind && html` ${untrustedText(e.name)}`}
    <span class="muted">${untrustedText(e.phase)}</span> on
    <span class="sha">${untrustedText(shortSha(e.headSha))}</span> · ${exit} ·
    ${formatMilliseconds(e.durationMs)}${e.cached && html` · <span class="cached">from the cache</span>`}${
      withTurn && e.turnId !== null && html` · in ${link(`#turn-${e.turnId}`, `turn ${e.turnId}`)}`
    }
    <pre class="command">${untrustedText(e.command)}</pre>
    ${output(e)}
  </li>`;
}

/**
 * A finding's reproducer run in one line — outcome, exit code, duration — linking to the finding, where the
 * run is shown whole (its command and output are not repeated).
 */
export function executionLine(e: ExecutionRow & { findingNumber: number }): HtmlSafe {
  const exit = e.exitCode === null ? "no exit code" : `exit ${e.exitCode}`;
  const id = findingId(e.findingNumber);
  return html`<li class="execution">
    <span class="status status-${classToken(e.outcome)}">${untrustedText(e.outcome)}</span>
    <strong>${untrustedText(e.kind)}</strong> of ${link(`#${id}`, id)}
    <span class="muted">${untrustedText(e.phase)}</span> · ${exit} · ${formatMilliseconds(e.durationMs)}
  </li>`;
}

function output(e: ExecutionRow): HtmlSafe {
  if (e.outputLength === 0) return html`<p class="empty">No output.</p>`;
  const shown = e.outputTail.length;
  const label =
    shown < e.outputLength
      ? `output: its last ${formatCount(shown)} of ${formatCount(e.outputLength)} characters`
      : `output (${formatCount(shown)} characters)`;
  return html`<details class="output">
    <summary>${label}</summary>
    <pre class="output">${untrustedText(e.outputTail.replace(ANSI, ""))}</pre>
  </details>`;
}
