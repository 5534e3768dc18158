import type { ExecutionRow, RunView } from "../views/run-view.js";
import { executionItem, executionLine } from "./execution-item.js";
import { formatCount } from "./format-count.js";
import { formatMilliseconds } from "./format-milliseconds.js";
import { html } from "./html.js";
import type { HtmlSafe } from "./html-safe.js";
import { link } from "./link.js";
import { untrustedText } from "./untrusted-text.js";

/**
 * What the run ran of the repository's own code, grouped by the turn that ran it (oldest first, each group
 * anchored at #executions-turn-<id>), then those no turn ran: setups and checks whole, a finding's reproducer
 * runs in a line each that links to the finding (where they are shown whole).
 */
export function runExecutionsSection(view: RunView): HtmlSafe {
  if (!view.executions.length) return html`<p class="empty">Nothing of the repository's was run.</p>`;
  const byTurn = new Map<number | null, ExecutionRow[]>();
  for (const e of view.executions) {
    const list = byTurn.get(e.turnId);
    if (list) list.push(e);
    else byTurn.set(e.turnId, [e]);
  }
  const turns = view.turns.filter((t) => byTurn.has(t.id));
  const known = new Set(turns.map((t) => t.id));
  const rest = view.executions.filter((e) => e.turnId === null || !known.has(e.turnId));
  return html`${turns.map((t) =>
    group(
      `executions-turn-${t.id}`,
      html`${link(`#turn-${t.id}`, `Turn ${t.id}`)} <span class="muted">${untrustedText(t.role)}</span>`,
      byTurn.get(t.id)!,
    ),
  )}${rest.length > 0 && group("executions-no-turn", html`Not part of a turn`, rest)}`;
}

function group(id: string, title: HtmlSafe, rows: ExecutionRow[]): HtmlSafe {
  const ms = rows.reduce((sum, e) => sum + e.durationMs, 0);
  return html`<section class="turn-executions" id="${id}">
    <h3>
      ${title} ·
      <span class="muted"
        >${formatCount(rows.length)} run${rows.length === 1 ? "" : "s"}, ${formatMilliseconds(ms)}</span
      >
    </h3>
    <ol class="executions">
      ${rows.map((e) => (e.findingNumber !== null ? executionLine({ ...e, findingNumber: e.findingNumber }) : executionItem(e)))}
    </ol>
  </section>`;
}
