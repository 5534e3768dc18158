// src/text: how the app writes text it did not author — Markdown for GitHub and the run view, commit
// messages, prompt blocks — so that nothing in it pings, links, closes, hides or speaks as the bot; and the
// labels every surface shares. A leaf: the pipeline, the run view and the backtest import it; it imports
// nothing of the app.

/**
 * The one renderer for untrusted text: everything that came from the PR or the agent (paths, titles,
 * bodies, summaries, fixer notes, error text) passes through here before it reaches GitHub. The
 * transforms are uniform — the same in prose and in code — so no markdown parser has to be right
 * about where code starts for the output to be inert:
 * - invisible and direction-changing characters (zero-width, bidi controls) are removed;
 * - every `@` followed by a name character gets a zero-width space after it: no mention in any
 *   position (after `_`, `*`, `` ` ``, `(`, a slash, a team name…) can ping anyone;
 * - every `<` that could open a tag or a comment (`<a`, `</`, `<!`, `<?`) gets a zero-width non-joiner
 *   after it: no raw HTML that hides content, no HTML comment, no forged hidden marker;
 * - fenced code blocks left open are closed, so agent text cannot swallow what the bot appends.
 * In code the inserted characters are invisible; the text reads the same.
 *
 * A suggested change is the exception: its bytes are what the author commits with one click, so
 * nothing may be inserted. `postableSuggestion` passes it unchanged or not at all (see there).
 */

const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u180e]/g;
const ZWSP = "\u200b";
const ZWNJ = "\u200c";
const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})/;

export function sanitizeMarkdown(text: string): string {
  return closeFences(neutralize(text));
}

/** Anything the bot's marker parsers would take for theirs (`<!-- no-mistakes:…`), spaced or cased otherwise too. */
const MARKER_LIKE = /<!--\s*no-mistakes\s*:/i;
/** C0 controls but tab, LF and CR, DEL and C1: GitHub rewrites or drops some, so the commit would differ. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/**
 * The replacement text of a suggested change, exactly as given, when it can be posted safely inside
 * a fenced block that no line of it can close (suggestionBlock picks the fence); else undefined and
 * the caller posts the finding without it. Inside such a block GitHub renders no HTML and links or
 * notifies no @mention, so those stay as they are. Refused: text the bot's marker parsers would read
 * as the bot's own (a forged finding or review marker), invisible or direction-changing characters
 * (they hide what the commit really contains, and removing them would change the commit), and
 * control characters.
 */
export function postableSuggestion(text: string): string | undefined {
  if (MARKER_LIKE.test(text) || CONTROL.test(text)) return undefined;
  INVISIBLE.lastIndex = 0;
  if (INVISIBLE.test(text)) return undefined;
  return text;
}

/** A single-line code span (for paths, refs): a fence no backtick run inside can close, whitespace collapsed. */
export function inlineCode(text: string): string {
  const one = neutralize(text).replace(/\s+/g, " ").trim();
  const longest = Math.max(0, ...[...one.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = one.startsWith("`") || one.endsWith("`") || one === "" ? " " : "";
  return `${fence}${pad}${one}${pad}${fence}`;
}

/** A single-line, pipe-safe table cell. */
export function tableCell(text: string, max = 120): string {
  const one = neutralize(text).replace(/\s+/g, " ").replace(/\|/g, "\\|").trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/**
 * The transforms every piece of untrusted text gets, fences aside: invisible and direction-changing
 * characters removed, no @mention, no tag or comment opener (see the top of this file).
 */
export function neutralize(text: string): string {
  return text
    .replace(INVISIBLE, "")
    .replace(/@(?=[\p{L}\p{N}_-])/gu, `@${ZWSP}`)
    .replace(/<(?=[A-Za-z/!?])/g, `<${ZWNJ}`);
}

function closeFences(text: string): string {
  let open: string | undefined;
  for (const line of text.split("\n")) {
    const fence = FENCE_LINE.exec(line)?.[1];
    if (!fence) continue;
    if (open === undefined) open = fence;
    else if (fence[0] === open[0] && fence.length >= open.length && line.trim() === fence) open = undefined;
  }
  return open === undefined ? text : `${text}\n${open}`;
}
