import { createHash } from "node:crypto";
import { normalizePath } from "./normalize-path.js";

/**
 * A finding's identity within a run, used to recognise a problem the reviewer reports again:
 * 16 hex characters of sha256 over the normalized path and the normalized title.
 *
 * Stable across line shifts and cosmetic rewording: the path goes through `normalizePath`
 * (`./src/a.ts`, `b/src/a.ts` and `src/a.ts` are one file), and the title is lower-cased, loses
 * line references (`line 42`, `on lines 3-5`, `#L42`, `(L42)`, `a.ts:42:7`), punctuation and
 * backticks (identifiers themselves are kept: `foo` and `bar` stay different), and has its
 * whitespace collapsed. Other digits are kept: `retry 3 times` and `retry 5 times` differ.
 *
 * The body is deliberately not hashed (hashing it too would be the wider choice): a
 * reviewer rewords its explanation every time it restates a problem, above all a fresh session
 * after a fallback or a `--full` review, and a body-sensitive fingerprint would post the same
 * problem again as a new finding. The cost is that two different problems with the same title in
 * the same file share a fingerprint; the ledger sees them as one, which is the lesser evil.
 * `body` is accepted so a finding can be passed as it is, and ignored.
 */
export function fingerprint(finding: { path: string; title: string; body?: string }): string {
  const path = normalizePath(finding.path) ?? finding.path.trim();
  return createHash("sha256")
    .update(`${path}\n${normalizeTitle(finding.title)}`)
    .digest("hex")
    .slice(0, 16);
}

const NUMBER_LIST = String.raw`\d+(?:\s*(?:-|–|—|to|through|and|,|&)\s*\d+)*`;
/** Line references in a title, each with what replaces it. */
const LINE_REFERENCES: [RegExp, string][] = [
  // "on line 42", "at lines 3-5", "line #7", "lines 3, 5 and 9"
  [new RegExp(String.raw`(?:\b(?:on|at|in|near|around)\s+)?\blines?\s*[#:]?\s*${NUMBER_LIST}`, "gu"), " "],
  // GitHub anchors and their short forms: "#L42", "#L42-L44", "(L42)", "L3-L5"
  [/#l\d+(?:-l?\d+)?|\(l\d+(?:\s*-\s*l?\d+)?\)|\bl\d+-l\d+\b/gu, " "],
  // "src/a.ts:42" / "a.ts:42:7": a position after a file name keeps the file name
  [/(\.[\p{L}\p{N}]+):\d+(?::\d+)?\b/gu, "$1"],
];

function normalizeTitle(title: string): string {
  let text = title.normalize("NFKC").toLowerCase();
  for (const [pattern, replacement] of LINE_REFERENCES) text = text.replace(pattern, replacement);
  return text
    .replace(/[^\p{L}\p{N}_\s]+/gu, " ")
    .replace(/\s+/gu, " ")
    .trim();
}
