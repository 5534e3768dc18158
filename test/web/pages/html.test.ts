import { describe, expect, it } from "vitest";
import { html } from "../../../src/web/pages/html.js";
import { safeUrl } from "../../../src/web/pages/safe-url.js";
import { untrustedText } from "../../../src/web/pages/untrusted-text.js";

describe("html", () => {
  it.each([
    ["&", "&amp;"],
    ["<", "&lt;"],
    [">", "&gt;"],
    ['"', "&quot;"],
    ["'", "&#39;"],
    ["`", "&#96;"],
    ["<b title='x'>`a` & \"b\"</b>", "&lt;b title=&#39;x&#39;&gt;&#96;a&#96; &amp; &quot;b&quot;&lt;/b&gt;"],
    ["plain text", "plain text"],
  ])("escapes %j between elements", (value, escaped) => {
    expect(html`<p>${value}</p>`.markup).toBe(`<p>${escaped}</p>`);
  });

  it("escapes a value in a quoted attribute", () => {
    expect(html`<span title="${'"><script>'}">x</span>`.markup).toBe('<span title="&quot;&gt;&lt;script&gt;">x</span>');
  });

  it("passes markup it made, and joins arrays of it", () => {
    const items = ["a", "<b>"].map((s) => html`<li>${s}</li>`);
    // prettier-ignore
    const list = html`<ul>${items}</ul>`;
    expect(list.markup).toBe("<ul><li>a</li><li>&lt;b&gt;</li></ul>");
  });

  it("renders nothing for undefined, null and false, and numbers as text", () => {
    expect(html`<p>${undefined}${null}${false}${0}${12.5}</p>`.markup).toBe("<p>012.5</p>");
  });

  it("takes a safeUrl as a whole link address", () => {
    expect(html`<a href="${safeUrl("/repos/a/b?x=1&y=2")}">x</a>`.markup).toBe(
      '<a href="/repos/a/b?x=1&amp;y=2">x</a>',
    );
  });

  it("refuses a plain string as a link address", () => {
    expect(() => html`<a href="${"javascript:alert(1)"}">x</a>`).toThrow(/safeUrl/);
    expect(() => html`<form action="${"/x"}"></form>`).toThrow(/safeUrl/);
  });

  it("refuses a missing link address rather than linking to the page itself", () => {
    expect(() => html`<a href="${safeUrl("javascript:alert(1)")}">x</a>`).toThrow(/missing/);
  });

  it("refuses a link address built in the template", () => {
    expect(() => html`<a href="/repos/${"x"}">x</a>`).toThrow(/safeUrl/);
    expect(() => html`<a href="${safeUrl("/a")}${"b"}">x</a>`).toThrow(/safeUrl/);
  });

  it("refuses an unquoted attribute value", () => {
    expect(() => html`<span title=${"x onmouseover=alert(1)"}>x</span>`).toThrow(/unquoted/);
  });

  it("refuses a plain string inside a tag (it could name an attribute)", () => {
    expect(() => html`<span ${"onclick=alert(1)"}>x</span>`).toThrow(/inside a tag/);
    expect(html`<option ${html`selected`}>x</option>`.markup).toBe("<option selected>x</option>");
  });

  it("refuses markup inside an attribute value, but takes escaped untrusted text there", () => {
    expect(() => html`<span title="${html`<b>x</b>`}">x</span>`).toThrow();
    expect(html`<span title="${untrustedText('a"b')}">x</span>`.markup).toBe('<span title="a&quot;b">x</span>');
  });

  it("refuses untrusted text as a link address", () => {
    expect(() => html`<a href="${untrustedText("/x")}">x</a>`).toThrow();
  });

  it("checks each attribute after the first on its own", () => {
    const markup = html`<a class="${"c"}" href="${safeUrl("#x")}" title="${"t"}">x</a>`.markup;
    expect(markup).toBe('<a class="c" href="#x" title="t">x</a>');
  });
});
