import { describe, expect, it } from "vitest";
import { renderRepositoriesPage } from "../../../src/web/pages/render-repositories-page.js";
import type { PageContext } from "../../../src/web/pages/page-context.js";
import { parsePage } from "./parse-page.js";
import { viewFixtures } from "./view-fixtures.js";

const ctx: PageContext = { user: { login: "alice" }, operator: false, github: { webOrigin: "https://github.com" } };

describe("renderRepositoriesPage", () => {
  it("lists each repository with a link to its page, its open work, spend and last activity", () => {
    const view = viewFixtures({ text: (f) => (f === "owner" ? "octo" : "repo") }).repositories;
    const page = parsePage(renderRepositoriesPage(view, ctx));
    const links = page.byTag("a").map((a) => [page.attr(a, "href"), page.text(a)]);
    expect(links).toContainEqual(["/repos/octo/repo1", "octo/repo1"]);
    expect(links).toContainEqual(["/repos/octo/repo2", "octo/repo2"]);
    const rows = page
      .byTag("tr")
      .slice(1)
      .map((r) => page.text(r).replace(/\s+/g, " ").trim());
    expect(rows[1]).toContain("2 of 6 open");
    expect(rows[1]).toContain("20");
    expect(rows[1]).toContain("$1.0000");
    expect(rows[1]).toContain("$4.5000");
    expect(rows[1]).toContain("2026-12-04 10:00:02 UTC");
  });

  it("encodes a repository name's characters in its link", () => {
    const view = { repositories: [{ ...viewFixtures().repositories.repositories[0]!, fullName: "o/a b?c#d" }] };
    const page = parsePage(renderRepositoriesPage(view, ctx));
    expect(page.byTag("a").map((a) => page.attr(a, "href"))).toContain("/repos/o/a%20b%3Fc%23d");
  });

  it("says there is nothing when the person can read no reviewed repository", () => {
    const page = parsePage(renderRepositoriesPage({ repositories: [] }, ctx));
    expect(page.text()).toContain("no repositories with reviews that you can read");
    expect(page.byTag("table")).toEqual([]);
  });
});
