import type { FailedJobRow, OperatorView, RefusalRow } from "../views/operator-view.js";
import type { Scorecard } from "../views/scorecard-view.js";
import { formatCount } from "./format-count.js";
import { html } from "./html.js";
import type { HtmlSafe } from "./html-safe.js";
import { layout } from "./layout.js";
import { link } from "./link.js";
import type { PageContext } from "./page-context.js";
import { scorecardSection } from "./scorecard-section.js";
import { sitePath } from "./site-path.js";
import { timeElement } from "./time-element.js";
import { truncateText } from "./truncate-text.js";
import { untrustedText } from "./untrusted-text.js";

/** A failed job's reason is shown up to this many characters (a stack trace's useful top). */
const REASON_MAX = 4000;

/** Replaces secrets in a text to be shown (createSecretRedactor: the app's secret values and every token shape). */
export type Redact = (text: string) => string;

/**
 * The operator's page: the queues, the workers and their heartbeats, failed jobs with their reasons, recent
 * refusals, and every repository's scorecard when given. A failed job's reason is whatever the job threw (a git or GitHub error can quote a URL or a
 * header), and a refusal's was written by an older version or another process: both pass `redact` here,
 * before they are cut and escaped, whatever was done when they were stored.
 */
export function renderOperatorPage(
  view: OperatorView,
  ctx: PageContext,
  redact: Redact,
  scorecard?: Scorecard,
): string {
  const body = html`<h1>Operator</h1>
    ${scorecard && scorecardSection(scorecard, { byRepository: true })}
    <h2>Queues</h2>
    ${queuesTable(view.queues)}
    <h2>Workers</h2>
    ${workersTable(view.workers)}
    <h2>Failed jobs <span class="muted">(newest ${formatCount(view.failedJobs.length)})</span></h2>
    ${
      view.failedJobs.length
        ? view.failedJobs.map((job) => failedJob(job, redact))
        : html`<p class="empty">No failed jobs.</p>`
    }
    <h2>Refusals <span class="muted">(newest ${formatCount(view.refusals.length)})</span></h2>
    ${refusalsTable(view.refusals, redact)}`;
  return layout({
    title: "Operator",
    user: ctx.user,
    operator: ctx.operator,
    breadcrumbs: [{ label: "Repositories", href: "/repos" }, { label: "Operator" }],
    body,
  });
}

/** Each queue's queued, active and failed jobs. */
function queuesTable(queues: OperatorView["queues"]): HtmlSafe {
  return queues.length
    ? html`<table class="queues">
        <thead>
          <tr>
            <th>Queue</th>
            <th class="num">Queued</th>
            <th class="num">Active</th>
            <th class="num">Failed</th>
          </tr>
        </thead>
        <tbody>
          ${queues.map(
            (q) =>
              html`<tr>
                <td><code>${untrustedText(q.name)}</code></td>
                <td class="num">${formatCount(q.queued)}</td>
                <td class="num">${formatCount(q.active)}</td>
                <td class="num">${formatCount(q.failed)}</td>
              </tr>`,
          )}
        </tbody>
      </table>`
    : html`<p class="empty">No queues.</p>`;
}

/** The workers beating: where, since when, their last beat and jobs done. */
function workersTable(workers: OperatorView["workers"]): HtmlSafe {
  return workers.length
    ? html`<div class="table-scroll">
        <table class="workers">
          <thead>
            <tr>
              <th>Host</th>
              <th class="num">PID</th>
              <th>Role</th>
              <th>Started</th>
              <th>Last beat</th>
              <th class="num">Jobs</th>
            </tr>
          </thead>
          <tbody>
            ${workers.map(
              (w) =>
                html`<tr>
                  <td>${untrustedText(w.host)}</td>
                  <td class="num">${w.pid}</td>
                  <td>${untrustedText(w.role)}</td>
                  <td>${timeElement(w.startedAt)}</td>
                  <td>${timeElement(w.beatAt)}</td>
                  <td class="num">${formatCount(w.jobs)}</td>
                </tr>`,
            )}
          </tbody>
        </table>
      </div>`
    : html`<p class="empty">No workers are beating.</p>`;
}

/** The newest refusals, their reasons redacted. */
function refusalsTable(refusals: RefusalRow[], redact: Redact): HtmlSafe {
  return refusals.length
    ? html`<div class="table-scroll">
        <table class="refusals">
          <thead>
            <tr>
              <th>When</th>
              <th>Kind</th>
              <th>Where</th>
              <th>Who</th>
              <th>Reason</th>
            </tr>
          </thead>
          <tbody>
            ${refusals.map((r) => refusal(r, redact))}
          </tbody>
        </table>
      </div>`
    : html`<p class="empty">No refusals.</p>`;
}

function where(repositoryFullName: string | null, prNumber: number | null): HtmlSafe {
  if (!repositoryFullName) return html`<span class="muted">—</span>`;
  if (prNumber === null) return link(sitePath(repositoryFullName), untrustedText(repositoryFullName));
  return link(sitePath(repositoryFullName, prNumber), untrustedText(`${repositoryFullName}#${prNumber}`));
}

function failedJob(job: FailedJobRow, redact: Redact): HtmlSafe {
  const reason = redact(job.reason);
  return html`<details class="failed-job">
    <summary>
      <code>${untrustedText(job.queue)}</code> ${where(job.repositoryFullName, job.prNumber)} ·
      ${timeElement(job.failedAt)} · <code>${untrustedText(job.id)}</code> ·
      ${untrustedText(truncateText(reason.split("\n", 1)[0] ?? "", 160))}
    </summary>
    <pre class="reason">${untrustedText(truncateText(reason, REASON_MAX))}</pre>
  </details>`;
}

function refusal(r: RefusalRow, redact: Redact): HtmlSafe {
  return html`<tr>
    <td>${timeElement(r.at)}</td>
    <td>
      ${untrustedText(r.kind)}${
        r.count > 1
          ? html` <span class="muted" title="this row stands for that many refusals of its kind"
              >×${formatCount(r.count)}</span
            >`
          : ""
      }
    </td>
    <td>${where(r.repositoryFullName, r.prNumber)}</td>
    <td>${r.actor === null ? html`<span class="muted">—</span>` : untrustedText(r.actor)}</td>
    <td><pre class="reason">${untrustedText(truncateText(redact(r.reason), REASON_MAX))}</pre></td>
  </tr>`;
}
