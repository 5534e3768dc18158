import { describe, expect, it } from "vitest";
import { tokenForUrl } from "../../src/git/token-for-url.js";

const GITHUB = { hosts: ["github.com"], protocol: "https" as const };
const GHE_HTTP = { hosts: ["ghe.corp", "127.0.0.1"], protocol: "http" as const };

describe("tokenForUrl: the installation token goes only to trusted GitHub hosts", () => {
  it.each([
    ["https://github.com/octo/repo.git", GITHUB, "tok"],
    ["https://GitHub.com/octo/repo.git", GITHUB, "tok"],
    ["http://github.com/octo/repo.git", GITHUB, undefined], // never over plain http to a https GitHub
    ["https://github.com.evil.example/octo/repo.git", GITHUB, undefined],
    ["https://evil.example/octo/repo.git", GITHUB, undefined],
    ["ssh://git@github.com/octo/repo.git", GITHUB, undefined],
    ["/srv/git/repo.git", GITHUB, undefined],
    ["http://ghe.corp/octo/repo.git", GHE_HTTP, "tok"],
    ["http://127.0.0.1:8123/repo.git", GHE_HTTP, "tok"],
    ["https://ghe.corp/octo/repo.git", GHE_HTTP, "tok"],
    ["http://other.corp/octo/repo.git", GHE_HTTP, undefined],
  ])("%s → %s", (url, trusted, expected) => {
    expect(tokenForUrl(url, "tok", trusted)).toBe(expected);
  });
});
