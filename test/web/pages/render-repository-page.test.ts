import { describe, expect, it } from "vitest";
import { renderRepositoryPage } from "../../../src/web/pages/render-repository-page.js";
import type { PageContext } from "../../../src/web/pages/page-context.js";
import type { RepositoryView } from "../../../src/web/views/repository-view.js";
import { parsePage, type Element, type ParsedPage } from "./parse-page.js";
import { viewFixtures } from "./view-fixtures.js";

const ctx: PageContext = { user: { login: "alice" }, operator: false, github: { webOrigin: "https://github.com" } };

function view(change: Partial<RepositoryView> = {}): RepositoryView {
  return {
    ...viewFixtures().repository,
    fullName: "octo/repo",
    authors: ["alice", "bob", "carol"],
    filter: { state: "closed", author: "bob", page: 2 },
    total: 140,
    pageSize: 50,
    ...change,
  };
}

function selected(page: ParsedPage, select: Element): string[] {
  return select.childNodes
    .filter((c): c is Element => "tagName" in c && c.tagName === "option")
    .filter((o) => page.attr(o, "selected") !== undefined)
    .map((o) => page.attr(o, "value") ?? "");
}

function selectNamed(page: ParsedPage, name: string): Element {
  const select = page.byTag("select").find((s) => page.attr(s, "name") === name);
  if (!select) throw new Error(`no select named ${name}`);
  return select;
}

describe("renderRepositoryPage", () => {
  it("has a GET filter form on the repository's path that shows the current filter and submits without script", () => {
    const page = parsePage(renderRepositoryPage(view(), ctx));
    const [form] = page.byTag("form").filter((f) => page.attr(f, "method") === "get");
    expect(form && page.attr(form, "action")).toBe("/repos/octo/repo");
    expect(selected(page, selectNamed(page, "state"))).toEqual(["closed"]);
    expect(selected(page, selectNamed(page, "author"))).toEqual(["bob"]);
    const options = selectNamed(page, "author").childNodes.filter((c): c is Element => "tagName" in c);
    expect(options.map((o) => page.attr(o, "value"))).toEqual(["", "alice", "bob", "carol"]);
    expect(
      page
        .byTag("button")
        .filter((b) => page.attr(b, "type") === "submit")
        .map((b) => page.text(b)),
    ).toContain("Filter");
  });

  it("selects everyone when no author is filtered, and keeps an author who is not in the list", () => {
    const everyone = parsePage(renderRepositoryPage(view({ filter: { state: "all", page: 1 } }), ctx));
    expect(selected(everyone, selectNamed(everyone, "author"))).toEqual([""]);
    expect(selected(everyone, selectNamed(everyone, "state"))).toEqual(["all"]);
    const gone = parsePage(renderRepositoryPage(view({ filter: { state: "open", author: "dave", page: 1 } }), ctx));
    expect(selected(gone, selectNamed(gone, "author"))).toEqual(["dave"]);
  });

  it("links to the pages before and after, keeping the filter", () => {
    const page = parsePage(renderRepositoryPage(view(), ctx));
    const links = page.byTag("a").filter((a) => ["prev", "next"].includes(page.attr(a, "rel") ?? ""));
    const targets = links.map((a) => new URL(page.attr(a, "href")!, "https://run-view.example/"));
    expect(targets.map((u) => u.pathname)).toEqual(["/repos/octo/repo", "/repos/octo/repo"]);
    expect(targets.map((u) => Object.fromEntries(u.searchParams))).toEqual([
      { state: "closed", author: "bob", page: "1" },
      { state: "closed", author: "bob", page: "3" },
    ]);
  });

  it("has no link past the last page nor before the first", () => {
    const last = parsePage(renderRepositoryPage(view({ filter: { state: "open", page: 3 } }), ctx));
    expect(last.byTag("a").map((a) => last.attr(a, "rel"))).not.toContain("next");
    expect(last.byTag("a").map((a) => last.attr(a, "rel"))).toContain("prev");
    const first = parsePage(renderRepositoryPage(view({ filter: { state: "open", page: 1 } }), ctx));
    expect(first.byTag("a").map((a) => first.attr(a, "rel"))).not.toContain("prev");
    const one = parsePage(renderRepositoryPage(view({ total: 3, filter: { state: "open", page: 1 } }), ctx));
    expect(one.byTag("nav").filter((n) => one.attr(n, "class") === "pagination")).toEqual([]);
  });

  it("encodes an author with URL characters in the page links", () => {
    const page = parsePage(renderRepositoryPage(view({ filter: { state: "open", author: "a&b=c d", page: 2 } }), ctx));
    const next = page.byTag("a").find((a) => page.attr(a, "rel") === "next")!;
    expect(new URL(page.attr(next, "href")!, "https://x.example/").searchParams.get("author")).toBe("a&b=c d");
  });

  it("lists each PR with its link, state, findings by severity, review position and spend", () => {
    const page = parsePage(renderRepositoryPage(view(), ctx));
    const rows = page.byTag("tbody").flatMap((b) => b.childNodes.filter((c): c is Element => "tagName" in c));
    expect(rows).toHaveLength(3);
    const hrefs = page.byTag("a").map((a) => page.attr(a, "href"));
    for (const n of [1, 2, 3]) expect(hrefs).toContain(`/repos/octo/repo/pull/${n}`);
    const [first, second] = rows.map((r) => page.text(r).replace(/\s+/g, " "));
    expect(first).toContain("1 error · 2 warning · 0 info");
    expect(first).toContain("0123456 (head)");
    expect(first).toContain("$0.0100");
    expect(second).toContain("draft");
    expect(second).toContain("not yet");
  });

  it("says so when no PR matches", () => {
    const page = parsePage(renderRepositoryPage(view({ pullRequests: [], total: 0 }), ctx));
    expect(page.text()).toContain("No pull requests match.");
    expect(page.byTag("table")).toEqual([]);
  });
});
