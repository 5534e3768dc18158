import { linearRegex, UnsupportedPatternError } from "./linear-regex/index.js";

/** A title longer than GitHub allows (256) is tested on its first 256 characters: the title is the author's text. */
export const TITLE_TESTED_CHARS = 256;

const REGEX_FORM = /^\/(.+)\/([a-z]*)$/s;
/** Flags that change no state between tests (no `g`, no `y`). */
const ALLOWED_FLAGS = /^[imsuv]*$/;

/**
 * An `ignore.title` pattern as a test of a PR title: `/regex/flags` is a regular expression, anything else
 * plain text matched case-insensitively anywhere in the title (`WIP`, `[skip review]`). A regular
 * expression runs in time linear in the title (the author's text), so it may hold no backreference or
 * lookaround. Throws with the reason when a `/…/` pattern is not a valid regular expression, and an
 * `UnsupportedPatternError` when it is one that cannot run in linear time.
 */
export function titlePattern(pattern: string): (title: string) => boolean {
  const regex = REGEX_FORM.exec(pattern);
  if (!regex) {
    const text = pattern.toLowerCase();
    return (title) => title.slice(0, TITLE_TESTED_CHARS).toLowerCase().includes(text);
  }
  const [, source, flags] = regex as unknown as [string, string, string];
  if (!ALLOWED_FLAGS.test(flags)) throw new Error(`flags may be i, m, s, u or v, not \`${flags}\``);
  const compiled = linearRegex(source, flags);
  return (title) => compiled.test(title.slice(0, TITLE_TESTED_CHARS));
}

/** Why `pattern` is no usable title pattern, or undefined when it is one. */
export function titlePatternProblem(pattern: string): string | undefined {
  try {
    titlePattern(pattern);
    return undefined;
  } catch (error) {
    if (error instanceof UnsupportedPatternError)
      return `not supported in a title pattern, which runs in time linear in the title: ${error.what}`;
    return `not a valid regular expression: ${(error as Error).message}`;
  }
}
