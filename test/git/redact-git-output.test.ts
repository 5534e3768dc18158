import { describe, expect, it } from "vitest";
import { encodeBasicAuth } from "../../src/git/encode-basic-auth.js";
import { redactGitOutput } from "../../src/git/redact-git-output.js";

const TOKEN = "ghs_16C7e42F292c6912E7710c838347Ae178B4a";

describe("redactGitOutput", () => {
  it("removes the token and its Basic-auth form", () => {
    const text = `token ${TOKEN} header ${encodeBasicAuth(TOKEN)} done`;
    const out = redactGitOutput(text, TOKEN);
    expect(out).toBe("token [redacted] header [redacted] done");
  });

  it("removes Authorization header values and URL credentials even without the token", () => {
    const out = redactGitOutput(
      "http.extraHeader=Authorization: Basic abc123== from https://x-access-token:secret@github.com/o/r.git",
    );
    expect(out).toBe("http.extraHeader=Authorization: Basic [redacted] from https://[redacted]@github.com/o/r.git");
  });

  it("leaves ordinary output alone", () => {
    expect(redactGitOutput("fatal: couldn't find remote ref main", TOKEN)).toBe("fatal: couldn't find remote ref main");
  });

  it("encodes the token as GitHub expects", () => {
    expect(Buffer.from(encodeBasicAuth("abc"), "base64").toString()).toBe("x-access-token:abc");
  });
});
