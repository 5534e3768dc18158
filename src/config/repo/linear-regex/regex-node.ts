/** Where an assertion holds: `^`, `$`, `\b`, `\B`. */
export type Assertion = "start" | "end" | "word" | "not-word";

/**
 * A parsed regular expression, reduced to what decides whether it matches: capture groups, names and
 * laziness are gone (they change which text a match covers, never whether there is one).
 */
export type RegexNode =
  | { kind: "empty" }
  /** One character, tested by the native engine on that character alone (`a`, `.`, `\d`, `[^a-z]`). */
  | { kind: "char"; source: string }
  | { kind: "assert"; at: Assertion }
  | { kind: "concat"; items: RegexNode[] }
  | { kind: "alt"; options: RegexNode[] }
  | { kind: "repeat"; item: RegexNode; min: number; max: number };
