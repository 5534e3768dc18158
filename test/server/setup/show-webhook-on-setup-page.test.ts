import { describe, expect, it } from "vitest";
import { withWebhook } from "../../../src/server/setup/show-webhook-on-setup-page.js";

/** The part of Probot's setup page that matters here: the form whose button posts the manifest. */
const page = (manifest: Record<string, unknown>) =>
  `<form action="https://github.com/settings/apps/new" method="post">\n<button name="manifest" id="manifest" value='${JSON.stringify(manifest)}' >Register GitHub App</button></form>`;

const PROBOT_MANIFEST = {
  description: "Reviews pull requests",
  hook_attributes: { url: "http://localhost:3456/" },
  name: "no-mistakes",
  redirect_url: "http://localhost:3456/probot/setup",
};

const manifestOf = (html: string) =>
  JSON.parse(
    /id="manifest" value='([^']*)'/
      .exec(html)![1]!
      .replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n))),
  ) as typeof PROBOT_MANIFEST & { callback_urls?: string[]; request_oauth_on_install?: boolean };

describe("withWebhook", () => {
  it.each([
    {
      hook: { url: "https://smee.io/abc", via: "proxy" as const },
      url: "https://smee.io/abc",
      line: "GitHub will send the App's webhooks to <code>https://smee.io/abc</code>",
    },
    {
      hook: { url: "https://review.example.com/api/github/webhooks", via: "public" as const },
      url: "https://review.example.com/api/github/webhooks",
      line: "GitHub will send the App's webhooks to <code>https://review.example.com/api/github/webhooks</code>",
    },
    {
      hook: { problem: "GitHub cannot reach localhost" },
      url: "http://localhost:3456/api/github/webhooks", // at least the path the app answers
      line: "<strong>Webhooks will not arrive.</strong> GitHub cannot reach localhost.",
    },
  ])("$url", ({ hook, url, line }) => {
    const html = withWebhook(page(PROBOT_MANIFEST), hook, "/api/github/webhooks");
    expect(manifestOf(html)).toEqual({
      ...PROBOT_MANIFEST,
      hook_attributes: { url },
      callback_urls: ["http://localhost:3456/oauth/callback"],
      request_oauth_on_install: false,
    });
    expect(html).toContain(line);
    expect(html.indexOf(line)).toBeLessThan(html.indexOf("<form")); // above the button
  });

  it("asks for the sign-in callback at PUBLIC_URL when it is set, else at the page's own address", () => {
    const hook = { url: "https://smee.io/abc", via: "proxy" as const };
    const atPublic = manifestOf(withWebhook(page(PROBOT_MANIFEST), hook, "/hooks", "https://review.example.com"));
    expect(atPublic.callback_urls).toEqual(["https://review.example.com/oauth/callback"]);
    expect(atPublic.request_oauth_on_install).toBe(false);
    const { redirect_url: _, ...noAddress } = PROBOT_MANIFEST;
    const unknown = manifestOf(withWebhook(page(noAddress), hook, "/hooks"));
    expect(unknown).not.toHaveProperty("callback_urls");
  });

  it("keeps a manifest value with a quote or an ampersand intact as the browser will post it", () => {
    const manifest = { ...PROBOT_MANIFEST, description: "Finds what's wrong & says so <quietly>" };
    const html = withWebhook(page(manifest), { url: "https://smee.io/x", via: "proxy" }, "/hooks");
    expect(html).not.toContain("what's"); // an unescaped ' would end the attribute
    expect(manifestOf(html).description).toBe("Finds what's wrong & says so <quietly>");
  });
});
