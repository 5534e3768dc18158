import { describe, expect, it } from "vitest";
import { createSecretRedactor } from "../../../src/logging/redact-secrets.js";
import { renderOperatorPage } from "../../../src/web/pages/render-operator-page.js";
import type { PageContext } from "../../../src/web/pages/page-context.js";
import { parsePage } from "./parse-page.js";
import { viewFixtures } from "./view-fixtures.js";

const ctx: PageContext = { user: { login: "root" }, operator: true, github: { webOrigin: "https://github.com" } };
const text = (field: string) => (["owner", "repository"].includes(field) ? field : `plain ${field}`);
const squash = (s: string) => s.replace(/\s+/g, " ").trim();
/** What the web handler passes: the app's secret values (here one) and every token shape. */
const SECRET = "client-secret-0123456789";
const redact = createSecretRedactor([SECRET]);

describe("renderOperatorPage", () => {
  it("shows the queues, the workers and their beats", () => {
    const page = parsePage(renderOperatorPage(viewFixtures({ text }).operator, ctx, redact));
    const [queues] = page.byClass("queues");
    expect(squash(page.text(queues!))).toContain("review 1,234 2 3");
    const [workers] = page.byClass("workers");
    expect(squash(page.text(workers!))).toContain(
      "plain host 4242 worker 2026-12-04 10:00:00 UTC 2026-12-04 10:00:30 UTC 1",
    );
  });

  it("shows a failed job's reason as preformatted text, cut to a readable length", () => {
    const view = viewFixtures({ text }).operator;
    const page = parsePage(renderOperatorPage(view, ctx, redact));
    const [job] = page.byClass("failed-job");
    expect(job?.tagName).toBe("details");
    const reason = page.byClass("reason").find((r) => page.text(r).startsWith("plain job reason"))!;
    expect(reason.tagName).toBe("pre");
    const shown = page.text(reason);
    expect(shown.length).toBeLessThan(view.failedJobs[0]!.reason.length);
    expect(shown.length).toBeGreaterThan(1000);
    const left = view.failedJobs[0]!.reason.length - shown.slice(0, shown.lastIndexOf("\n")).length;
    expect(shown).toMatch(new RegExp(`… \\(${left} more characters\\)$`));
    expect(page.byTag("a").map((a) => page.attr(a, "href"))).toContain("/repos/owner/repository/pull/7");
  });

  it("lists refusals with who, where and why", () => {
    const page = parsePage(renderOperatorPage(viewFixtures({ text }).operator, ctx, redact));
    const [refusals] = page.byClass("refusals");
    const row = squash(page.text(refusals!));
    expect(row).toContain("unauthorized_command owner/repository plain refused actor plain refusal reason");
  });

  it("shows secrets in a refusal's or a failed job's reason redacted, whatever was stored", () => {
    const token = `ghs_${"A1b2C3d4E5".repeat(4)}`;
    const view = viewFixtures({ text }).operator;
    view.refusals = [
      {
        ...view.refusals[0]!,
        kind: "push_rejected",
        reason: `fix 1234567 not pushed: git said: fatal: https://x-access-token:${token}@github.com/o/r.git refused`,
      },
      { ...view.refusals[0]!, kind: "webhook_invalid", reason: `signature with ${SECRET} did not match`, count: 1234 },
    ];
    view.failedJobs = [
      {
        ...view.failedJobs[0]!,
        reason: `GitHubError: 401 for token ${token}\n    at request (authorization: token ${token})`,
      },
    ];
    const html = renderOperatorPage(view, ctx, redact);
    expect(html).not.toContain(token);
    expect(html).not.toContain(token.slice(0, 12));
    expect(html).not.toContain(SECRET);

    const page = parsePage(html);
    const [refusals] = page.byClass("refusals");
    const rows = squash(page.text(refusals!));
    expect(rows).toContain(
      "push_rejected owner/repository plain refused actor fix 1234567 not pushed: git said: fatal: https://x-access-token:[redacted]@", // a zero-width space follows the @ (no mention)
    );
    expect(rows).toContain(
      "webhook_invalid ×1,234 owner/repository plain refused actor signature with [redacted] did not match",
    );
    const [job] = page.byClass("failed-job");
    expect(squash(page.text(job!))).toContain("GitHubError: 401 for token [redacted]");
    expect(squash(page.text(job!))).toContain("at request (authorization: token [redacted]");
  });

  it("says so when there is nothing to show", () => {
    const page = parsePage(renderOperatorPage({ queues: [], workers: [], failedJobs: [], refusals: [] }, ctx, redact));
    const text = page.text();
    for (const empty of ["No queues.", "No workers are beating.", "No failed jobs.", "No refusals."]) {
      expect(text).toContain(empty);
    }
  });
});
