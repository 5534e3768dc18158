import type { RepositoriesView } from "../views/repositories-view.js";
import { formatCount } from "./format-count.js";
import { formatUsd } from "./format-usd.js";
import { html } from "./html.js";
import { layout } from "./layout.js";
import { link } from "./link.js";
import type { PageContext } from "./page-context.js";
import { sitePath } from "./site-path.js";
import { timeElement } from "./time-element.js";
import { untrustedText } from "./untrusted-text.js";

/** The home page: the repositories the person can read that have reviews, each with its open work and spend. */
export function renderRepositoriesPage(view: RepositoriesView, ctx: PageContext): string {
  const body = view.repositories.length
    ? html`<div class="table-scroll">
        <table class="repositories">
          <thead>
            <tr>
              <th>Repository</th>
              <th class="num">Open PRs with findings</th>
              <th class="num">Open findings</th>
              <th class="num">Spend, 7 days</th>
              <th class="num">Spend, 30 days</th>
              <th>Last activity</th>
            </tr>
          </thead>
          <tbody>
            ${view.repositories.map(
              (r) =>
                html`<tr>
                  <td>${link(sitePath(r.fullName), untrustedText(r.fullName))}</td>
                  <td class="num">
                    ${formatCount(r.openPullRequestsWithFindings)}
                    <span class="muted">of ${formatCount(r.openPullRequests)} open</span>
                  </td>
                  <td class="num">${formatCount(r.openFindings)}</td>
                  <td class="num">${formatUsd(r.spendWeekUsd)}</td>
                  <td class="num">${formatUsd(r.spendMonthUsd)}</td>
                  <td>${timeElement(r.lastActivityAt)}</td>
                </tr>`,
            )}
          </tbody>
        </table>
      </div>`
    : html`<p class="empty">There are no repositories with reviews that you can read.</p>`;
  return layout({
    title: "Repositories",
    user: ctx.user,
    operator: ctx.operator,
    breadcrumbs: [{ label: "Repositories" }],
    body: html`<h1>Repositories</h1>
      ${body}`,
  });
}
