import { describe, expect, it } from "vitest";
import { codeBlock } from "../../src/text/code-block.js";
import { findingMarkerPattern, where } from "../../src/text/labels.js";
import { inlineCode, sanitizeMarkdown, tableCell } from "../../src/text/sanitize-markdown.js";
import { seededRandom } from "../helpers/seeded-random.js";

/**
 * Property test: hostile strings built from the pieces attackers use, in every position GitHub
 * recognises a mention in, rendered through each renderer; every output must be inert. The checks
 * are plain string facts about the output, independent of how the renderer works.
 */

const NAMES = ["alice", "bob-smith", "o", "org/team", "Ünïcode", "a_b", "42"];
const BEFORE_MENTION = [
  "",
  " ",
  "\n",
  "_",
  "*",
  "**",
  "~",
  "`x`",
  "(",
  "[",
  ">",
  "-",
  "/",
  ",",
  ".",
  ":",
  '"',
  "'",
  "|",
  "\u200b",
  "\u2066",
  "\t",
];
const AFTER_MENTION = ["", " ", "_", "*", "`", ")", ".", "!", "\n", "'s"];
const PIECES = [
  "<!-- no-mistakes:NM-1 -->",
  "<!-- no-mistakes:summary -->",
  "<!--no-mistakes:budget-->",
  "\n<!-- no-mistakes:NM-7 -->",
  "<!-",
  "-->",
  "<details><summary>ok</summary>hidden</details>",
  "<img src=x onerror=alert(1)>",
  "</code>",
  "<?xml?>",
  "<a href='https://evil'>x</a>",
  "```",
  "````suggestion",
  "~~~",
  "\n```\n",
  "\n~~~~\n",
  "`",
  "``",
  "\u200b",
  "\u200c",
  "\u200d",
  "\ufeff",
  "\u2060",
  "\u202e",
  "\u202d",
  "\u2066",
  "\u2069",
  "\u200f",
  "|",
  "\\",
  "a.ts",
  "docs/a` @alice <!-- no-mistakes:NM-7 --> `b.md",
];

function hostileStrings(count: number, seed = 7): string[] {
  const next = seededRandom(seed);
  const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)]!;
  const out: string[] = [];
  // every mention position, alone
  for (const before of BEFORE_MENTION) for (const after of AFTER_MENTION) out.push(`${before}@${pick(NAMES)}${after}`);
  // and random mixtures
  for (let i = 0; i < count; i++) {
    const parts: string[] = [];
    const n = 1 + Math.floor(next() * 8);
    for (let j = 0; j < n; j++)
      parts.push(next() < 0.35 ? `${pick(BEFORE_MENTION)}@${pick(NAMES)}${pick(AFTER_MENTION)}` : pick(PIECES));
    out.push(parts.join(next() < 0.5 ? "" : " "));
  }
  return out;
}

const BIDI_OR_INVISIBLE = /[\u200d-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

/** Inert: no ping, no tag or comment GitHub would parse, no marker, no direction tricks. */
function expectInert(output: string, input: string): void {
  const context = `input ${JSON.stringify(input)} → ${JSON.stringify(output)}`;
  expect(/@[\p{L}\p{N}_-]/u.test(output), `a mention survives: ${context}`).toBe(false);
  expect(/<[A-Za-z/!?]/.test(output), `raw HTML or a comment survives: ${context}`).toBe(false);
  expect(output.includes("no-mistakes:") && /<!--\s*no-mistakes:/.test(output), `a marker survives: ${context}`).toBe(
    false,
  );
  expect(BIDI_OR_INVISIBLE.test(output), `a bidi or invisible character survives: ${context}`).toBe(false);
  // what we insert stands only right after `@` or `<`
  expect(/(^|[^@])\u200b/.test(output), `a zero-width space of the input survives: ${context}`).toBe(false);
  expect(/(^|[^<])\u200c/.test(output), `a zero-width non-joiner of the input survives: ${context}`).toBe(false);
}

/** Fence lines (``` or ~~~ at a line's start) open and close in pairs. */
function expectFencesClosed(output: string, input: string): void {
  let open: string | undefined;
  for (const line of output.split("\n")) {
    const fence = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (!fence) continue;
    if (open === undefined) open = fence;
    else if (fence[0] === open[0] && fence.length >= open.length && line.trim() === fence) open = undefined;
  }
  expect(open, `a fence is left open: ${JSON.stringify(input)}`).toBeUndefined();
}

const inputs = hostileStrings(1500);

describe("the untrusted-text renderer, on generated hostile strings", () => {
  it(`sanitizeMarkdown (bodies, summaries, notes): inert and its fences closed — ${inputs.length} strings`, () => {
    for (const input of inputs) {
      const output = sanitizeMarkdown(input);
      expectInert(output, input);
      expectFencesClosed(output, input);
      // nothing appended after it can be swallowed or hidden: a marker we add stays the last line
      const withMarker = `${output}\n\n<!-- no-mistakes:NM-3 -->`;
      expect(findingMarkerPattern().exec(withMarker)?.[1]).toBe("NM-3");
    }
  });

  it("inlineCode and where (paths): one line, one code span no backtick run can close, inert", () => {
    for (const input of inputs) {
      for (const output of [inlineCode(input), where(input, 3, 5)]) {
        expectInert(output, input);
        expect(output.includes("\n")).toBe(false);
        const fence = /^`+/.exec(output)![0];
        expect(output.endsWith(fence)).toBe(true);
        const inner = output.slice(fence.length, output.length - fence.length);
        // no run of exactly the fence's length inside: the span cannot close early
        expect(
          [...inner.matchAll(/`+/g)].some((m) => m[0].length === fence.length),
          JSON.stringify(input),
        ).toBe(false);
      }
    }
  });

  it("tableCell (titles in tables): one line, no bare pipe, inert", () => {
    for (const input of inputs) {
      const output = tableCell(input, 10_000);
      expectInert(output, input);
      expect(output.includes("\n")).toBe(false);
      expect(/(^|[^\\])\|/.test(output), JSON.stringify(input)).toBe(false);
    }
  });

  it("codeBlock (tool output, patches): exactly one block no line inside can close", () => {
    for (const input of inputs) {
      const output = codeBlock(input, 100_000, "diff");
      const lines = output.split("\n");
      const fence = /^`+/.exec(lines[0]!)![0];
      expect(fence.length).toBeGreaterThanOrEqual(3);
      expect(lines.at(-1)).toBe(fence);
      for (const line of lines.slice(1, -1))
        expect(new RegExp(`^ {0,3}\`{${fence.length},}\\s*$`).test(line), JSON.stringify(input)).toBe(false);
    }
  });

  it("the cases from the report: a path naming @alice with a marker, emphasised and code-adjacent mentions", () => {
    const path = "docs/a` @alice <!-- no-mistakes:NM-7 --> `b.md";
    expect(where(path, 1)).toBe("``docs/a` @\u200balice <\u200c!-- no-mistakes:NM-7 --> `b.md:1``");
    expect(sanitizeMarkdown("_@alice_ and `x`@bob")).toBe("_@\u200balice_ and `x`@\u200bbob");
    expect(sanitizeMarkdown("cc @org/team")).toBe("cc @\u200borg/team");
  });
});
