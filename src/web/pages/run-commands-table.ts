import type { CommandRow } from "../views/run-view.js";
import { html } from "./html.js";
import { classToken } from "./class-token.js";
import type { HtmlSafe } from "./html-safe.js";
import { link } from "./link.js";
import { timeElement } from "./time-element.js";
import { untrustedText } from "./untrusted-text.js";

/** The commands and thread replies asked for in the PR, oldest first, each linking to its comment on GitHub. */
export function runCommandsTable(
  commands: CommandRow[],
  /** The PR on GitHub (its comments are fragments of it). */
  pullUrl: string,
): HtmlSafe {
  if (!commands.length) return html`<p class="empty">No commands.</p>`;
  return html`<div class="table-scroll">
    <table class="commands">
      <thead>
        <tr>
          <th>Author</th>
          <th>Command</th>
          <th>Status</th>
          <th>Asked</th>
          <th>Finished</th>
          <th>Comment</th>
        </tr>
      </thead>
      <tbody>
        ${commands.map((c) => {
          const anchor = c.source === "review_comment" ? `discussion_r${c.commentId}` : `issuecomment-${c.commentId}`;
          const url = `${pullUrl}#${anchor}`;
          return html`<tr>
            <td>${untrustedText(c.author)}</td>
            <td><code>${untrustedText(c.name)}</code></td>
            <td><span class="status status-${classToken(c.status)}">${untrustedText(c.status)}</span></td>
            <td>${timeElement(c.createdAt)}</td>
            <td>${timeElement(c.finishedAt)}</td>
            <td>${link(url, "on GitHub", "external")}</td>
          </tr>`;
        })}
      </tbody>
    </table>
  </div>`;
}
