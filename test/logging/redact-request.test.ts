import { describe, expect, it } from "vitest";
import { redactHeaders } from "../../src/logging/redact-headers.js";
import { redactUrl } from "../../src/logging/redact-url.js";

describe("redactUrl", () => {
  it.each([
    ["a path alone", "/repos/octo/widgets", "/repos/octo/widgets"],
    [
      "OAuth's code and state",
      "/oauth/callback?code=abc&state=def",
      "/oauth/callback?code=[redacted]&state=[redacted]",
    ],
    [
      "an error GitHub sent back, kept",
      "/oauth/callback?error=access_denied&state=s",
      "/oauth/callback?error=access_denied&state=[redacted]",
    ],
    ["the setup flow's one-time code", "/probot?setup_code=0f0f", "/probot?setup_code=[redacted]"],
    [
      "token-like names",
      "/x?access_token=a&id_token=b&api_key=c&client_secret=d&password=e",
      "/x?access_token=[redacted]&id_token=[redacted]&api_key=[redacted]&client_secret=[redacted]&password=[redacted]",
    ],
    ["a name spelled with escapes", "/x?%74oken=a&CODE=b", "/x?%74oken=[redacted]&CODE=[redacted]"],
    ["a filter, kept", "/repos/octo/widgets?author=octocat&page=2", "/repos/octo/widgets?author=octocat&page=2"],
    ["a parameter without a value", "/x?code&debug", "/x?code=[redacted]&debug"],
    ["a malformed escape in a name, read as written", "/x?%E0%A4%A=1&token=2", "/x?%E0%A4%A=1&token=[redacted]"],
  ])("%s", (_name, url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});

describe("redactHeaders", () => {
  it("replaces cookies and credentials, keeps the rest, and leaves the request's own headers alone", () => {
    const headers = {
      cookie: "nm_session=abc",
      "set-cookie": ["nm_session=abc; HttpOnly"],
      authorization: "Bearer xyz",
      "proxy-authorization": "Basic eHl6",
      "user-agent": "curl/8",
    };
    expect(redactHeaders(headers)).toEqual({
      cookie: "[redacted]",
      "set-cookie": "[redacted]",
      authorization: "[redacted]",
      "proxy-authorization": "[redacted]",
      "user-agent": "curl/8",
    });
    expect(headers.cookie).toBe("nm_session=abc");
  });
});
