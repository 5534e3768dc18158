import { shortSha } from "../../text/labels.js";
import type { PullRequestRow, RepositoryFilter, RepositoryView } from "../views/repository-view.js";
import type { Scorecard } from "../views/scorecard-view.js";
import { formatCount } from "./format-count.js";
import { formatUsd } from "./format-usd.js";
import { html } from "./html.js";
import { classToken } from "./class-token.js";
import type { HtmlSafe } from "./html-safe.js";
import { layout } from "./layout.js";
import { link } from "./link.js";
import type { PageContext } from "./page-context.js";
import { safeUrl } from "./safe-url.js";
import { scorecardSection } from "./scorecard-section.js";
import { sitePath } from "./site-path.js";
import { timeElement } from "./time-element.js";
import { untrustedText } from "./untrusted-text.js";

const STATES: RepositoryFilter["state"][] = ["all", "open", "paused", "closed"];

/**
 * A repository's PRs, a page at a time, with a filter form (state, author) that is a plain GET form
 * and page links that keep the filter: both work without script. Below them, the repository's scorecard
 * when given.
 */
export function renderRepositoryPage(view: RepositoryView, ctx: PageContext, scorecard?: Scorecard): string {
  const base = sitePath(view.fullName);
  const pages = Math.max(1, Math.ceil(view.total / Math.max(1, view.pageSize)));
  const body = html`<h1>${untrustedText(view.fullName)}</h1>
    ${filterForm(base, view)}
    <p class="muted">
      ${formatCount(view.total)} pull
      request${view.total === 1 ? "" : "s"}${pages > 1 && html` · page ${view.filter.page} of ${pages}`}
    </p>
    ${
      view.pullRequests.length
        ? html`<div class="table-scroll">
            <table class="pull-requests">
              <thead>
                <tr>
                  <th class="num">#</th>
                  <th>Title</th>
                  <th>Author</th>
                  <th>State</th>
                  <th>Open findings</th>
                  <th>Reviewed</th>
                  <th class="num">Turns</th>
                  <th class="num">Spend</th>
                  <th>Updated</th>
                </tr>
              </thead>
              <tbody>
                ${view.pullRequests.map((pr) => row(view.fullName, pr))}
              </tbody>
            </table>
          </div>`
        : html`<p class="empty">No pull requests match.</p>`
    }
    ${pagination(base, view.filter, pages)} ${scorecard && scorecardSection(scorecard)}`;
  return layout({
    title: view.fullName,
    user: ctx.user,
    operator: ctx.operator,
    breadcrumbs: [{ label: "Repositories", href: "/repos" }, { label: view.fullName }],
    body,
  });
}

function filterForm(action: string, view: RepositoryView): HtmlSafe {
  const { state, author } = view.filter;
  const authors = author && !view.authors.includes(author) ? [author, ...view.authors] : view.authors;
  return html`<form class="filter" method="get" action="${safeUrl(action)}">
    <label
      >State
      <select name="state">
        ${STATES.map((s) => html`<option value="${s}" ${s === state && html` selected`}>${s}</option>`)}
      </select></label
    >
    <label
      >Author
      <select name="author">
        <option value="" ${!author && html` selected`}>everyone</option>
        ${authors.map((a) => html`<option value="${a}" ${a === author && html` selected`}>${untrustedText(a)}</option>`)}
      </select></label
    >
    <button type="submit">Filter</button>
  </form>`;
}

function row(fullName: string, pr: PullRequestRow): HtmlSafe {
  const path = sitePath(fullName, pr.number);
  const { error, warning, info } = pr.openFindings;
  return html`<tr>
    <td class="num">${link(path, `#${pr.number}`)}</td>
    <td class="title">${link(path, untrustedText(pr.title))}</td>
    <td>${untrustedText(pr.author)}</td>
    <td>
      <span class="status status-${classToken(pr.state)}">${untrustedText(pr.state)}</span
      >${pr.draft && html` <span class="muted">draft</span>`}
    </td>
    <td>
      <span class="severity-error">${error} error</span> · <span class="severity-warning">${warning} warning</span> ·
      <span class="severity-info">${info} info</span>
    </td>
    <td>${reviewed(pr)}</td>
    <td class="num">${formatCount(pr.turns)}</td>
    <td class="num">${formatUsd(pr.spendUsd)}</td>
    <td>${timeElement(pr.updatedAt)}</td>
  </tr>`;
}

function reviewed(pr: PullRequestRow): HtmlSafe {
  if (!pr.lastReviewedSha)
    return html`<span class="muted">not yet</span>
      <span class="sha" title="head">${untrustedText(shortSha(pr.headSha))}</span>`;
  if (pr.lastReviewedSha === pr.headSha)
    return html`<span class="sha">${untrustedText(shortSha(pr.headSha))}</span> <span class="muted">(head)</span>`;
  return html`<span class="sha" title="last reviewed">${untrustedText(shortSha(pr.lastReviewedSha))}</span>
    <span class="muted">behind head</span>
    <span class="sha" title="head">${untrustedText(shortSha(pr.headSha))}</span>`;
}

function pagination(base: string, filter: RepositoryFilter, pages: number): HtmlSafe | undefined {
  if (pages <= 1 && filter.page <= 1) return undefined;
  const to = (page: number) => {
    const query = new URLSearchParams({ state: filter.state });
    if (filter.author) query.set("author", filter.author);
    query.set("page", String(page));
    return `${base}?${query.toString()}`;
  };
  const previous = filter.page > 1 ? Math.min(filter.page - 1, pages) : undefined;
  const next = filter.page < pages ? filter.page + 1 : undefined;
  return html`<nav class="pagination" aria-label="Pages">
    ${previous && html`<a rel="prev" href="${safeUrl(to(previous))}">← Newer</a>`}${next && html`<a rel="next" href="${safeUrl(to(next))}">Older →</a>`}
  </nav>`;
}
