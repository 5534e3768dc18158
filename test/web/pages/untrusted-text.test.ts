import { describe, expect, it } from "vitest";
import { untrustedText } from "../../../src/web/pages/untrusted-text.js";

const ZWSP = "\u200b";
const ZWNJ = "\u200c";

describe("untrustedText", () => {
  it.each([
    ["removes bidi controls", "a\u202eb\u2066c\u2069d", "abcd"],
    ["removes zero-width characters and BOMs", "a\u200bb\u200dc\ufeffd\u2060e", "abcde"],
    ["neutralises mentions", "cc @octocat and @org/team", `cc @${ZWSP}octocat and @${ZWSP}org/team`],
    ["breaks tag and comment openers, then escapes", "<script><!-- x", `&lt;${ZWNJ}script&gt;&lt;${ZWNJ}!-- x`],
    ["escapes quotes, ampersands and backticks", `"a" & 'b' \`c\``, "&quot;a&quot; &amp; &#39;b&#39; &#96;c&#96;"],
    ["drops control characters but keeps tabs and newlines", "a\u0000b\u0007c\td\ne\u009f", "abc\td\ne"],
    ["keeps plain text", "Fix the cache (a < b)", "Fix the cache (a &lt; b)"],
  ])("%s", (_, text, markup) => {
    expect(untrustedText(text).markup).toBe(markup);
    expect(untrustedText(text).kind).toBe("text");
  });
});
