import type { RegexNode } from "./regex-node.js";
import { UnsupportedPatternError } from "./unsupported-pattern-error.js";

const COUNT = /\{(\d+)(?:(,)(\d*))?\}/y;
const HEX4 = /[0-9a-fA-F]{4}/y;
const HEX2 = /[0-9a-fA-F]{2}/y;
/** Unicode properties of strings (`v` flag): they match several code points, not one character. */
const STRING_PROPERTY = /\\p\{(?:Basic_Emoji|Emoji_Keycap_Sequence|RGI_Emoji\w*)\}/;

/**
 * Parses a JavaScript regular expression that the native engine has already accepted (so syntax errors
 * are its own) into the nodes the linear engine runs. Throws `UnsupportedPatternError` for what cannot
 * run without backtracking: backreferences and lookaround.
 */
export function parseRegex(source: string, flags: string): RegexNode {
  const parser = new RegexParser(source, /[uv]/.test(flags), flags.includes("v"));
  const node = parser.alternation();
  if (parser.pos < source.length) throw new UnsupportedPatternError(`\`${source[parser.pos]}\` at ${parser.pos}`);
  return node;
}

class RegexParser {
  pos = 0;

  constructor(
    private readonly src: string,
    private readonly unicode: boolean,
    private readonly sets: boolean,
  ) {}

  alternation(): RegexNode {
    const options = [this.sequence()];
    while (this.src[this.pos] === "|") {
      this.pos++;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0]! : { kind: "alt", options };
  }

  private sequence(): RegexNode {
    const items: RegexNode[] = [];
    while (this.pos < this.src.length && this.src[this.pos] !== "|" && this.src[this.pos] !== ")") {
      const item = this.term();
      const count = this.quantifier();
      items.push(count ? { kind: "repeat", item, ...count } : item);
    }
    if (items.length === 0) return { kind: "empty" };
    return items.length === 1 ? items[0]! : { kind: "concat", items };
  }

  /** `*`, `+`, `?`, `{m}`, `{m,}`, `{m,n}`; a lazy `?` after it changes nothing about whether text matches. */
  private quantifier(): { min: number; max: number } | undefined {
    const c = this.src[this.pos];
    let count: { min: number; max: number } | undefined;
    if (c === "*") count = { min: 0, max: Infinity };
    else if (c === "+") count = { min: 1, max: Infinity };
    else if (c === "?") count = { min: 0, max: 1 };
    if (count) this.pos++;
    else if (c === "{") {
      COUNT.lastIndex = this.pos;
      const m = COUNT.exec(this.src);
      if (!m) return undefined; // outside `u`/`v`, a `{` that is no count is a literal
      const min = Number(m[1]);
      count = { min, max: m[2] ? (m[3] ? Number(m[3]) : Infinity) : min };
      this.pos = COUNT.lastIndex;
    }
    if (count && this.src[this.pos] === "?") this.pos++;
    return count;
  }

  private term(): RegexNode {
    const c = this.src[this.pos]!;
    if (c === "^" || c === "$") {
      this.pos++;
      return { kind: "assert", at: c === "^" ? "start" : "end" };
    }
    if (c === "(") return this.group();
    if (c === "[") return this.charClass();
    if (c === "\\") return this.escape();
    const char = this.unicode ? String.fromCodePoint(this.src.codePointAt(this.pos)!) : c;
    this.pos += char.length;
    return { kind: "char", source: char };
  }

  private group(): RegexNode {
    this.pos++;
    const head = this.src.slice(this.pos, this.pos + 3);
    if (head.startsWith("?=") || head.startsWith("?!")) throw unsupported(`lookahead \`(${head.slice(0, 2)}\``);
    if (head === "?<=" || head === "?<!") throw unsupported(`lookbehind \`(${head}\``);
    if (head.startsWith("?:")) this.pos += 2;
    else if (head.startsWith("?<")) this.pos = this.src.indexOf(">", this.pos) + 1;
    else if (head.startsWith("?")) throw unsupported(`the group \`(${head}\``);
    const inner = this.alternation();
    if (this.src[this.pos] !== ")") throw unsupported("an unclosed group");
    this.pos++;
    return inner;
  }

  /** A whole class is one character test; `]` right after `[` or `[^` closes it, as JavaScript reads it. */
  private charClass(): RegexNode {
    const start = this.pos;
    this.pos += this.src[this.pos + 1] === "^" ? 2 : 1;
    let depth = 1;
    while (this.pos < this.src.length) {
      const c = this.src[this.pos];
      if (c === "\\") {
        if (this.sets && this.src.startsWith("\\q{", this.pos)) throw unsupported("a string in a class (`\\q{…}`)");
        this.pos += 2;
        continue;
      }
      this.pos++;
      if (c === "[" && this.sets) depth++;
      else if (c === "]" && --depth === 0) break;
    }
    return this.oneCharacter(this.src.slice(start, this.pos));
  }

  private escape(): RegexNode {
    const next = this.src[this.pos + 1] ?? "";
    if (next === "b" || next === "B") {
      this.pos += 2;
      return { kind: "assert", at: next === "b" ? "word" : "not-word" };
    }
    if (/[1-9]/.test(next)) throw unsupported(`a backreference (\`\\${next}\`)`);
    if (next === "k") throw unsupported("a named backreference (`\\k`)");
    if (next === "0" && /\d/.test(this.src[this.pos + 2] ?? "")) throw unsupported("an octal escape (`\\0…`)");
    if (next === "c" && !/[A-Za-z]/.test(this.src[this.pos + 2] ?? "")) throw unsupported("`\\c` without a letter");
    const end = this.escapeEnd(next);
    const source = this.src.slice(this.pos, end);
    this.pos = end;
    return this.oneCharacter(source);
  }

  /** Where the escape at `pos` ends (`\d`, `\x41`, `\u0041`, `\u{1F600}`, a surrogate pair, `\p{L}`, `\cJ`). */
  private escapeEnd(next: string): number {
    const after = this.pos + 2;
    if (next === "c") return after + 1;
    if (next === "x") return this.matchesAt(HEX2, after) ? after + 2 : after;
    if ((next === "p" || next === "P") && this.unicode) return this.src.indexOf("}", after) + 1;
    if (next !== "u") return after;
    if (this.unicode && this.src[after] === "{") return this.src.indexOf("}", after) + 1;
    if (!this.matchesAt(HEX4, after)) return after;
    const lead = parseInt(this.src.slice(after, after + 4), 16);
    const pair = this.unicode && lead >= 0xd800 && lead <= 0xdbff && this.src.startsWith("\\u", after + 4);
    const trail = pair && this.matchesAt(HEX4, after + 6) ? parseInt(this.src.slice(after + 6, after + 10), 16) : 0;
    return trail >= 0xdc00 && trail <= 0xdfff ? after + 10 : after + 4;
  }

  /** Whether the sticky `re` matches the source at `index`. */
  private matchesAt(re: RegExp, index: number): boolean {
    re.lastIndex = index;
    return re.test(this.src);
  }

  private oneCharacter(source: string): RegexNode {
    if (this.sets && STRING_PROPERTY.test(source)) throw unsupported(`a property of strings (\`${source}\`)`);
    return { kind: "char", source };
  }
}

function unsupported(what: string): UnsupportedPatternError {
  return new UnsupportedPatternError(what);
}
