import { describe, expect, it } from "vitest";
import { renderMessagePage } from "../../../src/web/pages/render-message-page.js";
import { parsePage } from "./parse-page.js";

const anonymous = { operator: false };

describe("renderMessagePage", () => {
  it("asks to sign in with a link to /login that returns to the page", () => {
    const page = parsePage(renderMessagePage({ kind: "sign-in", next: "/repos/o/r/pull/3?x=1&y=2" }, anonymous));
    const link = page.byTag("a").find((a) => page.text(a) === "Sign in with GitHub")!;
    const target = new URL(page.attr(link, "href")!, "https://run-view.example/");
    expect(target.origin + target.pathname).toBe("https://run-view.example/login");
    expect(target.searchParams.get("next")).toBe("/repos/o/r/pull/3?x=1&y=2");
  });

  it.each(["https://evil.example/", "//evil.example/", "javascript:alert(1)", "/\\evil.example"])(
    "drops a return address that is not a path here (%j)",
    (next) => {
      const page = parsePage(renderMessagePage({ kind: "sign-in", next }, anonymous));
      const link = page.byTag("a").find((a) => page.text(a) === "Sign in with GitHub")!;
      expect(page.attr(link, "href")).toBe("/login");
    },
  );

  it("says Not found and nothing about what was asked for", () => {
    const markup = renderMessagePage({ kind: "not-found" }, { user: { login: "alice" }, operator: false });
    const page = parsePage(markup);
    expect(page.byTag("h1").map((h) => page.text(h))).toEqual(["Not found"]);
    expect(page.byTag("title").map((t) => page.text(t))).toEqual(["Not found · no-mistakes"]);
  });

  it("shows a bad request's message as text", () => {
    const page = parsePage(
      renderMessagePage({ kind: "bad-request", message: "page must be a number, not <b>x</b>" }, anonymous),
    );
    expect(page.text().replace(/\u200c/g, "")).toContain("page must be a number, not <b>x</b>");
    expect(page.byTag("b")).toEqual([]);
  });

  it("names the settings sign-in needs", () => {
    const page = parsePage(renderMessagePage({ kind: "sign-in-not-configured" }, anonymous));
    expect(page.byTag("code").map((c) => page.text(c))).toEqual(["GITHUB_CLIENT_ID", "GITHUB_CLIENT_SECRET"]);
  });
});
