import { neutralize } from "../../text/sanitize-markdown.js";
import { escapeHtml } from "./escape-html.js";
import { HtmlSafe } from "./html-safe.js";

/** C0 controls but tab, LF and CR, DEL and C1: not text a page can show. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const CONTROL_ALL = new RegExp(CONTROL.source, "g");

/**
 * Text from a PR, a person or an agent (titles, bodies, reasons, replies, branch names, errors), ready
 * for a page: the same neutralising the bot applies before posting to GitHub (invisible and
 * direction-changing characters removed, no @mention, no tag or comment opener), control characters
 * dropped, then escaped. It is never read as markdown: a body goes in a `<pre>` as it is.
 */
export function untrustedText(text: string): HtmlSafe {
  const neutral = neutralize(text);
  return new HtmlSafe(escapeHtml(CONTROL.test(neutral) ? neutral.replace(CONTROL_ALL, "") : neutral), "text");
}
