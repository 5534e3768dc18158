const KEYWORD = String.raw`\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\b[ \t]*:?[ \t]*`;
/** An issue reference GitHub links after a closing keyword: `#N`, `GH-N`, `owner/repo#N`, or an issue/PR URL. */
const REFERENCE = String.raw`(?:https?:\/\/[^\s/]+\/([\w.-]+\/[\w.-]+)\/(?:issues|pull)\/(\d+)\b|([\w.-]+\/[\w.-]+)?#(\d+)\b|\bGH-(\d+)\b)`;
const CLOSING = new RegExp(`(${KEYWORD})((?:${REFERENCE}(?:[ \\t]*(?:,|\\band\\b)?[ \\t]*))+)`, "gi");
const ONE_REFERENCE = new RegExp(REFERENCE, "gi");
/** A line git's trailer parser (and GitHub's co-author parser) would read: `Token: value`, the token without spaces. */
const TRAILER = /^([ \t]*)([A-Za-z0-9][A-Za-z0-9-]*)[ \t]*:(?=[ \t]|$)/gm;
/** `@user` or `@org/team`, not the `@` inside an address like `x@y.org`. */
const MENTION = /(^|[^\w@.+-])@([A-Za-z0-9][A-Za-z0-9-]*(?:\/[A-Za-z0-9][\w.-]*)?)/g;

/**
 * An agent's words made safe to put in a commit message GitHub will read: nothing in them closes an
 * issue, adds a trailer or notifies anyone.
 * - A closing keyword's references lose their link form: `Closes #1` → `Closes issue 1`,
 *   `fixes owner/repo#2` (or its URL) → `fixes owner/repo issue 2`.
 * - A `Token: value` line, which git reads as a trailer in the last paragraph (`Co-authored-by:`,
 *   `Signed-off-by:`, …), gets a dash for its colon: `Co-authored-by - X <x@y>`.
 * - A mention loses its `@`: `@someone` → `someone`, `@org/team` → `org/team`.
 */
export function neutralizeAgentText(text: string): string {
  return text
    .replace(
      CLOSING,
      (_match, keyword: string, references: string) => keyword + references.replace(ONE_REFERENCE, plain),
    )
    .replace(MENTION, (_match, before: string, name: string) => before + name)
    .replace(TRAILER, (_match, indent: string, token: string) => `${indent}${token} -`);
}

function plain(
  _match: string,
  urlRepo: string | undefined,
  urlNumber: string | undefined,
  repo: string | undefined,
  number: string | undefined,
  ghNumber: string | undefined,
): string {
  if (urlNumber) return `${urlRepo} issue ${urlNumber}`;
  if (number) return `${repo ? `${repo} ` : ""}issue ${number}`;
  return `issue ${ghNumber}`;
}
