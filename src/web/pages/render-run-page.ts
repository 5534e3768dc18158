import { pullRequestAnchor } from "../../domain/pull-request-anchor.js";
import { shortSha } from "../../text/labels.js";
import type { RunView } from "../views/run-view.js";
import { findingDetails } from "./finding-details.js";
import { formatCount } from "./format-count.js";
import { formatMilliseconds } from "./format-milliseconds.js";
import { formatUsd } from "./format-usd.js";
import { githubRepositoryUrl } from "./github-repository-url.js";
import { html } from "./html.js";
import { classToken } from "./class-token.js";
import type { HtmlSafe } from "./html-safe.js";
import { layout } from "./layout.js";
import { link } from "./link.js";
import type { PageContext } from "./page-context.js";
import { runCommandsTable } from "./run-commands-table.js";
import { runExecutionsSection } from "./run-executions-section.js";
import { runSessionsTable } from "./run-sessions-table.js";
import { runTurnsTable } from "./run-turns-table.js";
import { sitePath } from "./site-path.js";
import { timeElement } from "./time-element.js";
import { untrustedText } from "./untrusted-text.js";

/**
 * A PR's run: the PR and what the bot spent on it (the agents' cost and the time its checks took), the
 * timeline of agent turns, each role's session, every finding with its history and reproducer runs, what
 * each turn ran of the repository's code, and the commands asked for. Long sections fold (`<details>`), and
 * each finding is folded to one line, so a run with hundreds of findings stays readable.
 */
export function renderRunPage(view: RunView, ctx: PageContext): string {
  const { run, totals } = view;
  const webOrigin = ctx.github.webOrigin;
  const repo = run.repositoryFullName;
  const repositoryUrl = githubRepositoryUrl(webOrigin, repo);
  const pullUrl = `${repositoryUrl}/pull/${run.prNumber}`;
  const body = html`<h1>${untrustedText(run.title)} <span class="muted">#${run.prNumber}</span></h1>
    ${runFacts(run, pullUrl)} ${totalsTable(totals)}
    <details class="section" id="turns" open>
      <summary>
        <h2>
          Timeline
          <span class="muted">(${formatCount(view.turns.length)} turn${view.turns.length === 1 ? "" : "s"})</span>
        </h2>
      </summary>
      ${runTurnsTable(view.turns, repositoryUrl)}
    </details>
    <details class="section" id="sessions" open>
      <summary><h2>Sessions</h2></summary>
      ${runSessionsTable(view.sessions)}
    </details>
    <details class="section" id="findings" open>
      <summary>
        <h2>Findings <span class="muted">(${formatCount(view.findings.length)})</span></h2>
      </summary>
      ${findingsSection(view, pullUrl)}
    </details>
    <details class="section" id="executions" open>
      <summary>
        <h2>Executions <span class="muted">(${formatCount(view.executions.length)})</span></h2>
      </summary>
      ${runExecutionsSection(view)}
    </details>
    <details class="section" id="commands" open>
      <summary>
        <h2>Commands <span class="muted">(${formatCount(view.commands.length)})</span></h2>
      </summary>
      ${runCommandsTable(view.commands, pullUrl)}
    </details>`;
  return layout({
    title: `${run.title} · ${repo}#${run.prNumber}`,
    user: ctx.user,
    operator: ctx.operator,
    breadcrumbs: [
      { label: "Repositories", href: "/repos" },
      { label: repo, href: sitePath(repo) },
      { label: `#${run.prNumber}` },
    ],
    body,
  });
}

/** Who opened the PR, its branches, state, labels, head and last reviewed commit, links to it on GitHub, the run's times. */
function runFacts(run: RunView["run"], pullUrl: string): HtmlSafe {
  const repo = run.repositoryFullName;
  return html`<dl class="facts">
    <dt>Author</dt>
    <dd>${untrustedText(run.author)}</dd>
    <dt>Branches</dt>
    <dd><code>${untrustedText(run.baseRef)}</code> ← <code>${untrustedText(run.headRef)}</code></dd>
    <dt>State</dt>
    <dd>
      <span class="status status-${classToken(run.state)}">${untrustedText(run.state)}</span
      >${run.draft && html` <span class="muted">draft</span>`}
    </dd>
    <dt>Labels</dt>
    <dd>
      ${run.labels.length ? run.labels.map((l) => html`<span class="label">${untrustedText(l)}</span>`) : html`<span class="muted">none</span>`}
    </dd>
    <dt>Head</dt>
    <dd>
      <span class="sha">${untrustedText(shortSha(run.headSha))}</span> · last reviewed
      ${run.lastReviewedSha ? html`<span class="sha">${untrustedText(shortSha(run.lastReviewedSha))}</span>` : html`<span class="muted">never</span>`}
    </dd>
    <dt>On GitHub</dt>
    <dd>
      ${link(pullUrl, untrustedText(`${repo}#${run.prNumber}`), "external")}${run.summaryCommentId !== null && html` · ${link(`${pullUrl}${pullRequestAnchor.issueComment(run.summaryCommentId)}`, "the bot's summary", "external")}`}
    </dd>
    <dt>Run</dt>
    <dd>started ${timeElement(run.createdAt)}, updated ${timeElement(run.updatedAt)}</dd>
  </dl>`;
}

function totalsTable(totals: RunView["totals"]): HtmlSafe {
  const share = totals.tokensIn > 0 ? `${((100 * totals.cacheReadTokens) / totals.tokensIn).toFixed(1)}%` : "—";
  return html`<table class="totals">
    <thead>
      <tr>
        <th class="num">Turns</th>
        <th class="num">Cost</th>
        <th class="num">Tokens in</th>
        <th class="num">Tokens out</th>
        <th class="num">Cache reads</th>
        <th class="num">Cache writes</th>
        <th class="num">Cache share of input</th>
        <th class="num">Execution time</th>
      </tr>
    </thead>
    <tbody>
      <tr>
        <td class="num">${formatCount(totals.turns)}</td>
        <td class="num">${formatUsd(totals.costUsd)}</td>
        <td class="num">${formatCount(totals.tokensIn)}</td>
        <td class="num">${formatCount(totals.tokensOut)}</td>
        <td class="num">${formatCount(totals.cacheReadTokens)}</td>
        <td class="num">${formatCount(totals.cacheWriteTokens)}</td>
        <td class="num">${share}</td>
        <td class="num">${formatMilliseconds(totals.executionMs)}</td>
      </tr>
    </tbody>
  </table>`;
}

function findingsSection(view: RunView, pullUrl: string): HtmlSafe {
  if (!view.findings.length) return html`<p class="empty">No findings.</p>`;
  const byStatus = new Map<string, number>();
  for (const f of view.findings) byStatus.set(f.status, (byStatus.get(f.status) ?? 0) + 1);
  const counts = [...byStatus].map(([status, n]) => `${formatCount(n)} ${status}`).join(" · ");
  return html`<p class="muted">${untrustedText(counts)}</p>
    ${view.findings.map((f) => findingDetails(f, pullUrl))}`;
}
