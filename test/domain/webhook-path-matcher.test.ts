import { describe, expect, it } from "vitest";
import { webhookPathMatcher } from "../../src/domain/webhook-path-matcher.js";

describe("webhookPathMatcher", () => {
  const matches = webhookPathMatcher("/api/github/webhooks");

  it("matches the path as the webhook middleware does", () => {
    expect(matches("/api/github/webhooks")).toBe(true);
    expect(matches("/api/github/webhooks/")).toBe(true);
    expect(matches("/api/github/webhooks?x=1")).toBe(true);
    expect(matches("/api/github/other/../webhooks")).toBe(true);
    expect(matches("/api/github/%77ebhooks")).toBe(false); // the middleware does not decode escapes either
  });

  it("does not match other paths or no URL", () => {
    expect(matches("/api/github/webhooks2")).toBe(false);
    expect(matches("/api/github")).toBe(false);
    expect(matches("/")).toBe(false);
    expect(matches(undefined)).toBe(false);
  });

  it("reads a configured path with a trailing slash, or one that is not canonical, by its pathname", () => {
    expect(webhookPathMatcher("/hooks/")("/hooks")).toBe(true);
    // "/a/../hooks" is "/hooks" once read: an exact match of the configured text is not taken on trust
    const odd = webhookPathMatcher("/a/../hooks");
    expect(odd("/a/../hooks")).toBe(false);
    expect(odd("/hooks")).toBe(false);
  });
});
