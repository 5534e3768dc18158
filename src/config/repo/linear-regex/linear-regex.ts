import { parseRegex } from "./parse-regex.js";
import type { Assertion } from "./regex-node.js";
import { ASSERTIONS, compileProgram } from "./regex-program.js";
import { runRegexProgram } from "./run-regex-program.js";
import { UnsupportedPatternError } from "./unsupported-pattern-error.js";

/** A compiled pattern: whether it matches anywhere in a text, as `RegExp.prototype.test` would say. */
export interface LinearRegex {
  test(text: string): boolean;
}

/** Instructions a program may have once counted repetitions are written out. */
export const DEFAULT_MAX_INSTRUCTIONS = 5_000;

const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;

/**
 * A JavaScript regular expression run in time linear in the text (and in the pattern's size): the same
 * answers as `new RegExp(source, flags).test(text)`, without backtracking. The native engine still
 * checks the syntax (its errors are thrown as they are) and tests each single character against its
 * class, escape or literal — one character at a time cannot backtrack. Backreferences, lookaround and
 * patterns past `maxInstructions` throw `UnsupportedPatternError`; flags may be `i`, `m`, `s`, `u`, `v`.
 */
export function linearRegex(source: string, flags = "", options: { maxInstructions?: number } = {}): LinearRegex {
  new RegExp(source, flags); // throws the native syntax error
  if (!/^[imsuv]*$/.test(flags)) throw new UnsupportedPatternError(`the flags \`${flags}\` are not supported`);
  const program = compileProgram(parseRegex(source, flags), options.maxInstructions ?? DEFAULT_MAX_INSTRUCTIONS);
  const charFlags = flags.replace("m", "");
  const chars = program.chars.map((c) => cachedTest(new RegExp(`^(?:${c})$`, charFlags)));
  const isWord = cachedTest(new RegExp("^\\w$", flags.replace(/[ms]/g, "")));
  const unicode = /[uv]/.test(flags);
  const multiline = flags.includes("m");
  return {
    test(text) {
      const units = unicode ? Array.from(text) : text.split("");
      const lineStart = (pos: number) => pos === 0 || (multiline && LINE_TERMINATOR.test(units[pos - 1]!));
      const lineEnd = (pos: number) => pos === units.length || (multiline && LINE_TERMINATOR.test(units[pos]!));
      const boundary = (pos: number) =>
        (pos > 0 && isWord(units[pos - 1]!)) !== (pos < units.length && isWord(units[pos]!));
      const at: Record<Assertion, (pos: number) => boolean> = {
        start: lineStart,
        end: lineEnd,
        word: boundary,
        "not-word": (pos) => !boundary(pos),
      };
      const assertions = ASSERTIONS.map((a) => at[a]);
      return runRegexProgram(program, {
        chars: units,
        accepts: (index, char) => chars[index]!(char),
        holds: (index, pos) => assertions[index]!(pos),
      });
    },
  };
}

/** A one-character test, remembered per character (a text has few distinct ones). */
function cachedTest(re: RegExp): (char: string) => boolean {
  const seen = new Map<string, boolean>();
  return (char) => {
    let result = seen.get(char);
    if (result === undefined) {
      result = re.test(char);
      seen.set(char, result);
    }
    return result;
  };
}
