import { describe, expect, it } from "vitest";
import { linearRegex, UnsupportedPatternError } from "../../../src/config/repo/linear-regex/index.js";
import { seededRandom } from "../../helpers/seeded-random.js";

const TEXTS = [
  "",
  "wip: halfway",
  "WIP",
  "[skip review] Bump deps",
  "release 1.2.3",
  "a\nb",
  "line one\r\nline two",
  "ſtraße K",
  "café 😀 done",
  "tabs\tand  spaces",
  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!",
  "foo_bar-baz",
];

/** Each pattern with its flags: the linear engine must answer exactly as `RegExp.prototype.test`. */
const PATTERNS: [string, string][] = [
  ["wip", ""],
  ["^wip\\b", "i"],
  ["^WIP$", ""],
  ["\\[skip review\\]", "i"],
  ["^\\d+\\.\\d+", ""],
  ["\\d+\\.\\d+\\.\\d+$", ""],
  ["[a-c]{3}", ""],
  ["[^a-z ]", ""],
  ["[^]", ""],
  ["[]", ""],
  ["\\W\\w", ""],
  ["\\S\\s\\S", ""],
  ["\\Bip", ""],
  ["^b", "m"],
  ["a$", "m"],
  ["one$", "m"],
  ["a.b", ""],
  ["a.b", "s"],
  ["(?:wip|draft):", "i"],
  ["(?<kind>fix|feat)(\\(\\w+\\))?:", ""],
  ["a{2,4}!", ""],
  ["a{41}!", ""],
  ["a{42}", ""],
  ["^a+?!$", ""],
  ["x*?y??z{0,}?", ""],
  ["(a|aa)*!", ""],
  ["(.*){3}done", ""],
  ["STRASSE", "i"],
  ["\\u017F", "i"],
  ["\\w", "iu"],
  ["\\bK\\b", "iu"],
  ["\\u212A", "iu"],
  ["CAFÉ", "i"],
  ["\\p{Lu}", "u"],
  ["\\p{Emoji_Presentation}", "u"],
  ["^.{5}😀", "u"],
  ["^.{6}😀", ""],
  ["\\u{1F600}", "u"],
  ["\\uD83D\\uDE00", "u"],
  ["[\\p{L}--[a-z]]", "v"],
  ["\\x5B", ""],
  ["\\t", ""],
  ["[\\s\\d]{2}", ""],
  ["a{,2}", ""],
  ["]", ""],
  ["^(?:)", ""],
  ["(?:$|x)+", ""],
];

describe("linearRegex answers as RegExp does", () => {
  it.each(PATTERNS)("/%s/%s", (source, flags) => {
    const native = new RegExp(source, flags);
    const linear = linearRegex(source, flags);
    expect(TEXTS.map((t) => linear.test(t))).toEqual(TEXTS.map((t) => native.test(t)));
  });

  it("on patterns generated from the supported syntax, for every flag set", () => {
    const random = seededRandom(39);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
    const atoms = ["a", "b", "A", ".", "\\d", "\\w", "\\s", "\\W", "[a-c]", "[^a]", "\\b", "\\B", "^", "$", "ſ", "k"];
    const counts = ["", "", "*", "+", "?", "{2}", "{1,3}", "{0,}", "*?", "+?"];
    const term = (depth: number): string =>
      depth > 0 && random() < 0.25 ? `(${sequence(depth - 1)}|${sequence(depth - 1)})` : pick(atoms);
    const sequence = (depth: number): string =>
      Array.from({ length: 1 + Math.floor(random() * 4) }, () => term(depth) + pick(counts)).join("");
    const alphabet = ["a", "b", "A", "1", " ", "\n", "ſ", "K", "k", "é", "😀", "_"];
    let compared = 0;
    for (let i = 0; i < 1500; i++) {
      const [source, flags] = [sequence(2), pick(["", "i", "m", "s", "u", "iu", "ims", "v"])];
      let native: RegExp;
      try {
        native = new RegExp(source, flags);
      } catch {
        continue; // `^*` and the like: the syntax check is the native engine's own
      }
      const linear = linearRegex(source, flags);
      for (let j = 0; j < 10; j++) {
        const text = Array.from({ length: Math.floor(random() * 8) }, () => pick(alphabet)).join("");
        expect([source, flags, text, linear.test(text)]).toEqual([source, flags, text, native.test(text)]);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(5_000);
  });
});

describe("what linearRegex refuses", () => {
  it.each([
    ["(a)\\1", "", "a backreference (`\\1`)"],
    ["(?<x>a)\\k<x>", "", "a named backreference (`\\k`)"],
    ["^(?!wip)", "", "lookahead `(?!`"],
    ["a(?=b)", "", "lookahead `(?=`"],
    ["(?<=a)b", "", "lookbehind `(?<=`"],
    ["(?<!a)b", "", "lookbehind `(?<!`"],
    ["[\\q{ab}]", "v", "a string in a class (`\\q{…}`)"],
    ["\\p{RGI_Emoji}", "v", "a property of strings (`\\p{RGI_Emoji}`)"],
    ["x(a{100}){50}", "", "more than 5000 steps once its counted repetitions are written out"],
    ["a{99999999999999999999}", "", "more than 5000 steps once its counted repetitions are written out"],
  ])("/%s/%s: %s", (source, flags, what) => {
    expect(() => linearRegex(source, flags)).toThrow(new UnsupportedPatternError(what));
  });

  it("a syntax error is the native engine's own", () => {
    expect(() => linearRegex("(a")).toThrow(new SyntaxError("Invalid regular expression: /(a/: Unterminated group"));
  });

  it("a pattern within the size limit runs; the limit can be lifted", () => {
    expect(linearRegex("^(a{100}){49}$").test("a".repeat(4900))).toBe(true);
    expect(linearRegex("^(a{100}){49}$").test("a".repeat(4899))).toBe(false);
    expect(linearRegex("^a{6000}$", "", { maxInstructions: Infinity }).test("a".repeat(6000))).toBe(true);
  });
});
