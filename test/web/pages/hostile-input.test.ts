import { describe, expect, it } from "vitest";
import { createSecretRedactor } from "../../../src/logging/redact-secrets.js";
import { renderMessagePage } from "../../../src/web/pages/render-message-page.js";
import { renderOperatorPage } from "../../../src/web/pages/render-operator-page.js";
import { renderRepositoriesPage } from "../../../src/web/pages/render-repositories-page.js";
import { renderRepositoryPage } from "../../../src/web/pages/render-repository-page.js";
import { renderRunPage } from "../../../src/web/pages/render-run-page.js";
import type { PageContext } from "../../../src/web/pages/page-context.js";
import { parsePage, type Element, type ParsedPage } from "./parse-page.js";
import { viewFixtures } from "./view-fixtures.js";

/**
 * Every text field of every view is set to what attackers write: tags, attribute breakouts, script
 * URLs, bidi and zero-width characters, mentions, the bot's own hidden markers. Each page is parsed
 * as a browser parses it; the data must add no element, no attribute, no comment — the page's shape
 * is the same as with plain text — and must read as the text it was.
 */

const PAYLOADS = [
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "'><svg onload=alert(1)>",
  "javascript:alert(1)",
  "`${alert(1)}`",
  "</pre></details></td></table><style>*{display:none}</style>",
  "<!-- no-mistakes:NM-1 -->",
  "@octocat",
  "safe\u202egnp.exe\u200b\u2066x\u2069\ufeff",
];
const HOSTILE = PAYLOADS.join(" ");
const BIDI_AND_INVISIBLE_BUT_INSERTED = /[\u200d-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u180e]/;

const ctx: PageContext = { user: { login: "alice" }, operator: true, github: { webOrigin: "https://ghe.example.com" } };

type Views = ReturnType<typeof viewFixtures>;
const pages: Record<string, (views: Views, text: (field: string) => string) => string> = {
  repositories: (v) => renderRepositoriesPage(v.repositories, ctx),
  repository: (v) => renderRepositoryPage(v.repository, ctx),
  run: (v) => renderRunPage(v.run, ctx),
  operator: (v) => renderOperatorPage(v.operator, ctx, createSecretRedactor([])),
  "bad request": (_, text) => renderMessagePage({ kind: "bad-request", message: text("message") }, ctx),
};

/** Every string in the views, the enum-like ones (states, statuses, severities, modes, shas) too, but addresses. */
function everyString<T>(value: T, change: (s: string) => string): T {
  if (typeof value === "string") return change(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => everyString(v, change)) as T;
  if (value && typeof value === "object" && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, k === "url" ? v : everyString(v, change)]),
    ) as T;
  }
  return value;
}

function shape(page: ParsedPage): string[] {
  return page.elements.map(
    (e) =>
      `${e.tagName}[${e.attrs
        .map((a) => a.name)
        .sort()
        .join(",")}]`,
  );
}

/** Reads as a person would: the characters the page inserted to neutralise mentions and tag openers are invisible. */
function visibleText(page: ParsedPage): string {
  return page.text().replace(/[\u200b\u200c]/g, "");
}

describe.each(
  Object.entries(pages).flatMap(
    ([name, render]) =>
      [
        [`the ${name} page with hostile text in every text field`, render, false],
        [`the ${name} page with hostile text in every string, enums and shas too`, render, true],
      ] as const,
  ),
)("%s", (_, render, everywhere) => {
  const build = (suffix: string): string => {
    const text = (field: string) => `${field} ${suffix}`;
    const views = viewFixtures({ text });
    return render(everywhere ? everyString(views, (s) => `${s} ${suffix}`) : views, text);
  };
  const plain = parsePage(build("plain"));
  const markup = build(HOSTILE);
  const hostile = parsePage(markup);

  it("has exactly the elements and attributes it has with plain text", () => {
    expect(shape(hostile)).toEqual(shape(plain));
  });

  it("has no script, style, image, svg or frame, no event handler, no inline style, no comment", () => {
    const tags = new Set(hostile.elements.map((e) => e.tagName));
    for (const tag of ["script", "style", "img", "svg", "iframe", "object", "embed"]) expect(tags).not.toContain(tag);
    const attributes = hostile.elements.flatMap((e) => e.attrs.map((a) => a.name));
    expect(attributes.filter((a) => a.startsWith("on") || a === "style" || a === "srcdoc")).toEqual([]);
    expect(hostile.comments).toEqual([]);
  });

  it("shows the hostile text as text, mentions and markers inert, hidden characters gone", () => {
    const text = visibleText(hostile);
    for (const payload of PAYLOADS.slice(0, 7)) expect(text).toContain(payload);
    expect(markup).not.toContain("<!-- no-mistakes");
    expect(hostile.text()).toContain("@\u200boctocat");
    expect(hostile.text()).not.toMatch(/@octocat/);
    expect(text).toContain("safegnp.exex");
    expect(hostile.text()).not.toMatch(BIDI_AND_INVISIBLE_BUT_INSERTED);
    // A form's option values carry the data exactly (the filter matches them); no other attribute does.
    const shown = hostile.elements.flatMap((e) => e.attrs.filter((a) => a.name !== "value").map((a) => a.value));
    expect(shown.filter((v) => BIDI_AND_INVISIBLE_BUT_INSERTED.test(v))).toEqual([]);
  });

  it("links only to this site and to GitHub over http(s)", () => {
    for (const e of hostile.elements) {
      for (const name of ["href", "src", "action", "formaction"]) {
        const value = hostile.attr(e, name);
        if (value === undefined) continue;
        const target = new URL(value, "https://run-view.example/");
        expect(["https://run-view.example", "https://ghe.example.com"]).toContain(target.origin);
      }
    }
  });
});

describe("link addresses from data", () => {
  it.each([
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " javascript:alert(1)",
    "java\tscript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "//evil.example/x",
    "vbscript:msgbox(1)",
    "https://ghe.example.com/octo/repo/pull/7#discussion_r42",
    "https://evil.example/pull/7#discussion_r42",
    "#discussion_r42x",
    "#discussion_r42 onmouseover=alert(1)",
    "/commits/../../../evil",
    "/commits/" + "a".repeat(39),
  ])("an event whose place is %j (not one of the PR's own) gets no link, and its other parts still show", (url) => {
    const page = parsePage(renderRunPage(viewFixtures({ url }).run, ctx));
    const hrefs = page.byTag("a").map((a) => page.attr(a, "href") ?? "");
    expect(
      hrefs.filter((h) => !h.startsWith("/") && !h.startsWith("#") && !h.startsWith("https://ghe.example.com/")),
    ).toEqual([]);
    const events = page.byClass("event");
    expect(events).toHaveLength(9);
    for (const event of events) {
      expect(page.text(event)).toContain("plain event actor");
      expect(page.text(event)).not.toMatch(/on GitHub/);
    }
  });

  it.each([
    ["#discussion_r42", "comment on GitHub"],
    ["#issuecomment-43", "comment on GitHub"],
    ["#pullrequestreview-44", "review on GitHub"],
    [`/commits/${"c".repeat(40)}`, "commit on GitHub"],
  ])("an event at %j links there on the PR's GitHub page", (url, label) => {
    const run = viewFixtures({ url, text: (field) => field.replace(/ /g, "-") }).run;
    const page = parsePage(renderRunPage(run, ctx));
    const events = page.byClass("event");
    const external = page
      .byTag("a")
      .filter((a) => events.includes(a.parentNode as Element) && !page.attr(a, "href")!.startsWith("#turn-"));
    expect(external).toHaveLength(9);
    for (const a of external) {
      expect(page.attr(a, "href")).toBe(`https://ghe.example.com/owner/repository/pull/7${url}`);
      expect(page.text(a)).toBe(label);
    }
  });
});
