import { describe, expect, it } from "vitest";
import { html } from "../../../src/web/pages/html.js";
import { layout } from "../../../src/web/pages/layout.js";
import { parsePage } from "./parse-page.js";

const body = html`<p class="content">hello</p>`;

describe("layout", () => {
  it("is a whole document with the one stylesheet, no script and no inline style", () => {
    const page = parsePage(layout({ title: "T", operator: false, body }));
    const links = page.byTag("link");
    expect(links.map((l) => [page.attr(l, "rel"), page.attr(l, "href")])).toEqual([
      ["stylesheet", "/assets/run-view.css"],
    ]);
    expect(page.byTag("script")).toEqual([]);
    expect(page.byTag("style")).toEqual([]);
    expect(page.elements.filter((e) => page.attr(e, "style") !== undefined)).toEqual([]);
    expect(page.byTag("title").map((t) => page.text(t))).toEqual(["T · no-mistakes"]);
    expect(page.byClass("content").map((p) => page.text(p))).toEqual(["hello"]);
  });

  it("shows who is signed in and a sign-out form that posts without script", () => {
    const page = parsePage(layout({ title: "T", user: { login: "alice" }, operator: false, body }));
    expect(page.text(page.byClass("login")[0]!)).toBe("Signed in as alice");
    const [form] = page.byTag("form");
    expect([page.attr(form!, "method"), page.attr(form!, "action")]).toEqual(["post", "/logout"]);
    expect(page.byTag("button").map((b) => page.attr(b, "type"))).toEqual(["submit"]);
    expect(page.byTag("a").map((a) => page.attr(a, "href"))).not.toContain("/operator");
  });

  it("links to the operator page for operators only", () => {
    const page = parsePage(layout({ title: "T", user: { login: "root" }, operator: true, body }));
    expect(page.byTag("a").map((a) => page.attr(a, "href"))).toContain("/operator");
  });

  it("has no account part when nobody is signed in", () => {
    const page = parsePage(layout({ title: "T", operator: true, body }));
    expect(page.byTag("form")).toEqual([]);
    expect(page.byTag("a").map((a) => page.attr(a, "href"))).toEqual(["/repos"]);
  });

  it("links each breadcrumb but the last, which is the current page", () => {
    const page = parsePage(
      layout({
        title: "T",
        operator: false,
        body,
        breadcrumbs: [{ label: "Repositories", href: "/repos" }, { label: "o/r", href: "/repos/o/r" }, { label: "#3" }],
      }),
    );
    expect(page.byClass("breadcrumbs").map((n) => n.tagName)).toEqual(["nav"]);
    const items = page.elements.filter((e) => e.tagName === "li");
    expect(items.map((li) => page.text(li).trim())).toEqual(["Repositories", "o/r", "#3"]);
    const crumbLinks = page.byTag("a");
    expect(crumbLinks.map((a) => [page.text(a).trim(), page.attr(a, "href")])).toEqual([
      ["no-mistakes", "/repos"],
      ["Repositories", "/repos"],
      ["o/r", "/repos/o/r"],
    ]);
    const current = page.elements.find((e) => page.attr(e, "aria-current") === "page");
    expect(current && page.text(current).trim()).toBe("#3");
  });
});
