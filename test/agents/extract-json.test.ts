import { describe, expect, it } from "vitest";
import { extractJson } from "../../src/agents/extract-json.js";

const fence = (lang: string, body: string) => `\`\`\`${lang}\n${body}\n\`\`\``;

describe("extractJson", () => {
  it.each<[string, string, unknown]>([
    ["the whole text as an object", '{"summary":"ok","findings":[]}', { summary: "ok", findings: [] }],
    ["the whole text as an array", "[1, 2, 3]", [1, 2, 3]],
    ["the whole text with blank lines around it", '\n\n  {"a": 1}  \n', { a: 1 }],
    ["a ```json block inside prose", `Here is my review:\n${fence("json", '{"a": 1}')}\nThanks.`, { a: 1 }],
    ["a bare ``` block", `Result:\n${fence("", '{"a": 1}')}`, { a: 1 }],
    ["an array in a ```json block", `Result:\n${fence("json", "[1, 2]")}`, [1, 2]],
    [
      "the last of two ```json blocks",
      `${fence("json", '{"draft": true}')}\nbetter:\n${fence("json", '{"draft": false}')}`,
      { draft: false },
    ],
    [
      "a ```json block over an object later in prose",
      `${fence("json", '{"a": 1}')}\nI used {"b": 2} as a guide.`,
      { a: 1 },
    ],
    [
      "a ```json block after a code block in another language",
      `${fence("ts", "const x = 1;")}\nprose\n${fence("json", "[1, 2]")}`,
      [1, 2],
    ],
    [
      "the ```json block, not an object after it, when another code block comes first",
      `${fence("ts", "let y = 2;")}\n${fence("json", '{"a": 1}')}\nnote: {"b": 2}`,
      { a: 1 },
    ],
    ["a ```json block with Windows line endings", 'x\r\n```json\r\n{"a": 1}\r\n```\r\n', { a: 1 }],
    [
      "a balanced object surrounded by prose",
      'I reviewed it. {"summary": "fine", "findings": []} That is all.',
      { summary: "fine", findings: [] },
    ],
    ["a nested object", 'Answer: {"a": {"b": {"c": [1, {"d": 2}]}}} done', { a: { b: { c: [1, { d: 2 }] } } }],
    [
      "braces inside strings",
      'Answer: {"code": "if (x) { y(); }", "close": "}"} ok',
      { code: "if (x) { y(); }", close: "}" },
    ],
    [
      "escaped quotes inside strings",
      'Answer: {"say": "he said \\"{hi}\\"", "n": 1}.',
      { say: 'he said "{hi}"', n: 1 },
    ],
    ["an escaped backslash before a closing quote", 'Answer: {"path": "C:\\\\", "n": 1}', { path: "C:\\", n: 1 }],
    ["the last of two objects in prose", 'First {"a": 1}, then {"b": 2}.', { b: 2 }],
    ["the last object that parses, skipping a broken one after it", 'Take {"a": 1} not {oops}', { a: 1 }],
    ["an object before a stray closing brace", '{"a": 1} and then a stray }', { a: 1 }],
  ])("finds %s", (_name, text, expected) => {
    expect(extractJson(text)).toEqual(expected);
  });

  it.each([
    ["plain prose", "Looks good to me."],
    ["an empty message", ""],
    ["a bare number", "42"],
    ["a bare string", '"done"'],
    ["an unbalanced object", '{"a": 1'],
    ["braces that are not JSON", "function f() { return {a: 1}; }"],
    ["a ```json block that does not parse", fence("json", "{not json}")],
    ["an array in prose, outside any block", "the ids are [1, 2, 3]"],
    ["JSON only in a block of another language", fence("ts", "[1, 2]")],
  ])("finds nothing in %s", (_name, text) => {
    expect(extractJson(text)).toBeUndefined();
  });
});
