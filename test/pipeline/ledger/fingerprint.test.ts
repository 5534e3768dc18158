import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { fingerprint } from "../../../src/pipeline/ledger/fingerprint.js";

const PATH = "src/a.ts";

describe("fingerprint", () => {
  it("is 16 hex characters of sha256 over path and normalized title", () => {
    const expected = createHash("sha256").update("src/a.ts\nnull check missing").digest("hex").slice(0, 16);
    expect(fingerprint({ path: PATH, title: "Null check missing", body: "b" })).toBe(expected);
    expect(fingerprint({ path: PATH, title: "x" })).toMatch(/^[0-9a-f]{16}$/);
  });

  it.each<[string, string, string]>([
    ["case", "Null check missing", "NULL CHECK MISSING"],
    ["whitespace", "Null check missing", "  Null \t check\nmissing "],
    ["punctuation", "Null check missing", "Null-check missing!"],
    ["backticks around identifiers", "`user.id` may be undefined", "user.id may be undefined"],
    ["a line number", "Null check missing on line 42", "Null check missing on line 57"],
    ["a line number vs none", "Null check missing (line 42)", "Null check missing"],
    ["a line range", "Unchecked index at lines 3-5", "Unchecked index at lines 10 to 12"],
    ["a list of lines", "Lines 3, 5 and 9: unchecked index", "unchecked index"],
    ["a GitHub anchor", "Leaks the token #L42", "Leaks the token #L80-L82"],
    ["a bracketed short form", "Leaks the token (L42)", "Leaks the token"],
    ["a file position", "Off-by-one in a.ts:42:7", "off by one in a.ts"],
    ["unicode width", "Ｎull check missing", "Null check missing"],
  ])("ignores %s", (_name, a, b) => {
    expect(fingerprint({ path: PATH, title: a })).toBe(fingerprint({ path: PATH, title: b }));
  });

  it.each<[string, { path: string; title: string }, { path: string; title: string }]>([
    ["paths", { path: "src/a.ts", title: "Null check missing" }, { path: "src/b.ts", title: "Null check missing" }],
    ["titles", { path: PATH, title: "Null check missing" }, { path: PATH, title: "SQL injection" }],
    ["identifiers", { path: PATH, title: "`foo` may be null" }, { path: PATH, title: "`bar` may be null" }],
    [
      "digits that are not line numbers",
      { path: PATH, title: "Retry 3 times" },
      { path: PATH, title: "Retry 5 times" },
    ],
    [
      "words that merely end in 'line'",
      { path: PATH, title: "headline 3 is wrong" },
      { path: PATH, title: "headline is wrong" },
    ],
    ["path case", { path: "src/A.ts", title: "x" }, { path: "src/a.ts", title: "x" }],
  ])("differs across %s", (_name, a, b) => {
    expect(fingerprint(a)).not.toBe(fingerprint(b));
  });

  it("ignores the body: reviewers reword it each time they restate a problem", () => {
    expect(fingerprint({ path: PATH, title: "t", body: "x is null here" })).toBe(
      fingerprint({ path: PATH, title: "t", body: "As noted before, x can be null." }),
    );
  });

  it.each(["./src/a.ts", "b/src/a.ts", "a/src/a.ts", "src//a.ts", " src/a.ts "])("treats %j as src/a.ts", (path) => {
    expect(fingerprint({ path, title: "t" })).toBe(fingerprint({ path: PATH, title: "t" }));
  });
});
