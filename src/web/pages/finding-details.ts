import { findingId } from "../../domain/finding-id.js";
import { pullRequestAnchor } from "../../domain/pull-request-anchor.js";
import type { FindingEventRow, FindingRow } from "../views/run-view.js";
import { executionItem } from "./execution-item.js";
import { html } from "./html.js";
import { classToken } from "./class-token.js";
import type { HtmlSafe } from "./html-safe.js";
import { link } from "./link.js";
import { timeElement } from "./time-element.js";
import { untrustedText } from "./untrusted-text.js";

/**
 * One finding, folded to a line (id, severity, status, title, place) that opens to its body (as
 * preformatted text, never markdown), ruling, verification, GitHub comment, its reproducer's runs (what the
 * app saw when it ran it) and history.
 */
export function findingDetails(
  f: FindingRow,
  /** The PR on GitHub (its comments are fragments of it). */
  pullUrl: string,
): HtmlSafe {
  const id = findingId(f.number);
  const place = f.path
    ? untrustedText(f.line ? `${f.path}:${f.line}${f.endLine && f.endLine > f.line ? `-${f.endLine}` : ""}` : f.path)
    : undefined;
  return html`<details class="finding" id="${id}">
    <summary>
      <strong>${id}</strong> <span class="severity-${classToken(f.severity)}">${untrustedText(f.severity)}</span>
      <span class="status status-${classToken(f.status)}">${untrustedText(f.status)}</span>
      ${untrustedText(f.title)}${place && html` <code class="place">${place}</code>`}
    </summary>
    ${findingFacts(f, pullUrl)}
    <pre class="body">${untrustedText(f.body)}</pre>
    ${
      f.executions.length > 0 &&
      html`<h3 class="reproducer-runs">Reproducer runs</h3>
        <ol class="executions">
          ${f.executions.map((e) => executionItem(e, true))}
        </ol>`
    }
    ${
      f.events.length
        ? html`<ol class="events">
            ${f.events.map((e) => event(e, pullUrl))}
          </ol>`
        : html`<p class="empty">No history recorded.</p>`
    }
  </details>`;
}

/** What was decided of a finding and where: its action, dismissal, ruling, verification, turns and GitHub comment. */
function findingFacts(f: FindingRow, pullUrl: string): HtmlSafe {
  const comment =
    f.commentId !== null
      ? link(`${pullUrl}${pullRequestAnchor.reviewComment(f.commentId)}`, "inline comment on GitHub", "external")
      : f.reviewId !== null
        ? link(`${pullUrl}${pullRequestAnchor.review(f.reviewId)}`, "in the review's body on GitHub", "external")
        : undefined;
  return html`<dl class="facts">
    <dt>Action</dt>
    <dd>${untrustedText(f.action)}</dd>
    ${
      f.dismissReason !== null &&
      html`<dt>Dismissed because</dt>
        <dd>${untrustedText(f.dismissReason)}</dd>`
    }${ruling(f, pullUrl)}${
      f.verification !== null &&
      html`<dt>Verification</dt>
        <dd>${untrustedText(f.verification)}</dd>`
    }${
      f.introducedTurnId !== null &&
      html`<dt>Raised in</dt>
        <dd>${turnLink(f.introducedTurnId)}</dd>`
    }${
      f.resolvedTurnId !== null &&
      html`<dt>Resolved in</dt>
        <dd>${turnLink(f.resolvedTurnId)}</dd>`
    }${
      comment &&
      html`<dt>Comment</dt>
        <dd>${comment}</dd>`
    }
  </dl>`;
}

function ruling(f: FindingRow, pullUrl: string): HtmlSafe | undefined {
  if (f.ruling === null) return undefined;
  return html`<dt>Ruling</dt>
    <dd>
      <strong>${untrustedText(f.ruling)}</strong
      >${f.rulingBy !== null && html` · argued by ${untrustedText(f.rulingBy)}`}${f.rulingConfirmation !== null && html` · ${untrustedText(f.rulingConfirmation)}`}${f.rulingConfirmedBy !== null && html` by ${untrustedText(f.rulingConfirmedBy)}`}${f.rulingReplyId !== null && html` · ${link(`${pullUrl}${pullRequestAnchor.reviewComment(f.rulingReplyId)}`, "the ruling on GitHub", "external")}`}${f.rulingReason !== null && html`<pre class="ruling-reason">${untrustedText(f.rulingReason)}</pre>`}
    </dd>`;
}

function event(e: FindingEventRow, pullUrl: string): HtmlSafe {
  return html`<li class="event">
    ${timeElement(e.at)}
    <strong>${untrustedText(e.kind)}</strong
    >${e.actor !== null && html` by ${untrustedText(e.actor)}`}${e.turnId !== null && html` in ${turnLink(e.turnId)}`}${githubLink(e.url, pullUrl)}${e.detail !== null && html`<pre class="detail">${untrustedText(e.detail)}</pre>`}
  </li>`;
}

function turnLink(turnId: number): HtmlSafe {
  return link(`#turn-${turnId}`, `turn ${turnId}`);
}

/** Where on GitHub an event happened (a comment, a review, a commit), when it is one of the PR's own places. */
function githubLink(anchor: string | null, pullUrl: string): HtmlSafe | undefined {
  if (anchor === null || !pullRequestAnchor.isValid(anchor)) return undefined;
  const label = anchor.startsWith("/commits/") ? "commit" : anchor.includes("review-") ? "review" : "comment";
  return html` · ${link(`${pullUrl}${anchor}`, `${label} on GitHub`, "external")}`;
}
