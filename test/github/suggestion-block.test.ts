import { describe, expect, it } from "vitest";
import { canSuggest as canSuggestFromPlacement } from "../../src/github/place-finding.js";
import { canSuggest, suggestionBlock } from "../../src/github/suggestion-block.js";

/**
 * Reads a suggestion block back the way CommonMark/GitHub does: the opening fence is a run of
 * backticks followed by `suggestion`; the block ends at the first line that is only a run of at
 * least as many backticks (up to 3 spaces of indent). Returns the replaced lines, and whether
 * that closing line was the block's last line (i.e. nothing leaked out of the block).
 */
function readBack(block: string): { lines: string[]; closedAtEnd: boolean } {
  const all = block.split("\n");
  const open = /^(`{3,})suggestion$/.exec(all[0] ?? "");
  if (!open?.[1]) throw new Error(`not a suggestion block: ${JSON.stringify(block)}`);
  const width = open[1].length;
  const lines: string[] = [];
  for (let i = 1; i < all.length; i++) {
    const line = all[i] as string;
    const close = /^ {0,3}(`+)[ \t]*$/.exec(line);
    if (close?.[1] && close[1].length >= width) return { lines, closedAtEnd: i === all.length - 1 };
    lines.push(line);
  }
  return { lines, closedAtEnd: false };
}

describe("suggestionBlock", () => {
  const cases: [string, string, string][] = [
    ["one line", "const a = 1;", "```suggestion\nconst a = 1;\n```"],
    ["one trailing newline is dropped", "const a = 1;\n", "```suggestion\nconst a = 1;\n```"],
    ["several lines", "a\n  b\nc", "```suggestion\na\n  b\nc\n```"],
    ["empty: deletes the lines", "", "```suggestion\n```"],
    ["a single newline: one empty line", "\n", "```suggestion\n\n```"],
    ["only one trailing newline is dropped", "a\n\n", "```suggestion\na\n\n```"],
    ["CRLF becomes LF", "a\r\nb\r\n", "```suggestion\na\nb\n```"],
    ["inline backticks keep the short fence", "const s = `x` + ``y``;", "```suggestion\nconst s = `x` + ``y``;\n```"],
    [
      "a ``` fence inside needs four",
      "/**\n * ```ts\n * x\n * ```\n */",
      "````suggestion\n/**\n * ```ts\n * x\n * ```\n */\n````",
    ],
    ["a bare ``` line inside needs four", "```\ncode\n```\n", "````suggestion\n```\ncode\n```\n````"],
    ["the longest run decides", "`````\n```", "``````suggestion\n`````\n```\n``````"],
  ];

  it.each(cases)("%s", (_name, replacement, expected) => {
    expect(suggestionBlock(replacement)).toBe(expected);
  });

  it.each([
    "plain",
    "a\nb\n",
    "```\n",
    "````md\n```js\nx\n```\n````",
    "   ```\nindented fence",
    "\n\n",
    "trailing ```",
    "``` ",
  ])("reads back as exactly the replacement's lines: %j", (replacement) => {
    const { lines, closedAtEnd } = readBack(suggestionBlock(replacement));
    expect(closedAtEnd).toBe(true);
    const content = replacement.endsWith("\n") ? replacement.slice(0, -1) : replacement;
    expect(lines).toEqual(replacement === "" ? [] : content.split("\n"));
  });

  it("re-exports canSuggest", () => {
    expect(canSuggest).toBe(canSuggestFromPlacement);
  });
});
