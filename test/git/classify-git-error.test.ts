import { describe, expect, it } from "vitest";
import { classifyGitError } from "../../src/git/classify-git-error.js";

describe("classifyGitError", () => {
  it.each([
    ["fatal: Authentication failed for 'https://github.com/o/r.git/'", "auth"],
    ["fatal: could not read Username for 'https://github.com': terminal prompts disabled", "auth"],
    ["fatal: unable to access 'https://github.com/o/r.git/': The requested URL returned error: 403", "auth"],
    [
      "remote: Permission to o/r.git denied to bot[bot].\nfatal: unable to access 'https://github.com/o/r.git/': The requested URL returned error: 403",
      "auth",
    ],
    ["remote: Repository not found.\nfatal: repository 'https://github.com/o/r.git/' not found", "not-found"],
    [
      "fatal: '/tmp/x.git' does not appear to be a git repository\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.",
      "not-found",
    ],
    ["fatal: couldn't find remote ref refs/pull/7/head", "not-found"],
    ["fatal: remote error: upload-pack: not our ref 0123456789012345678901234567890123456789", "not-found"],
    ["fatal: bad object 0123456789012345678901234567890123456789", "not-found"],
    ["fatal: ambiguous argument 'nope': unknown revision or path not in the working tree.", "not-found"],
    [" ! [rejected]        abc -> main (non-fast-forward)\nerror: failed to push some refs", "rejected"],
    [" ! [rejected]        abc -> main (fetch first)\nerror: failed to push some refs", "rejected"],
    [
      "remote: error: GH006: Protected branch update failed for refs/heads/main.\n ! [remote rejected] abc -> main (protected branch hook declined)",
      "rejected",
    ],
    [" ! [remote rejected] abc -> main (pre-receive hook declined)", "rejected"],
    [
      " ! [remote rejected] abc -> main (refusing to allow a GitHub App to create or update workflow `.github/workflows/ci.yml` without `workflows` permission)",
      "rejected",
    ],
    ["fatal: unable to access 'https://nope.invalid/r.git/': Could not resolve host: nope.invalid", "network"],
    [
      "fatal: unable to access 'http://127.0.0.1:1/x.git/': Failed to connect to 127.0.0.1 port 1 after 0 ms: Couldn't connect to server",
      "network",
    ],
    ["fatal: unable to access 'https://h/r.git/': Connection timed out after 300000 milliseconds", "network"],
    ["error: RPC failed; curl 56 GnuTLS recv error (-9)\nfatal: early EOF\nfatal: index-pack failed", "network"],
    ["fatal: unable to access 'https://h/r.git/': The requested URL returned error: 502", "network"],
    ["error: pathspec 'x' did not match any file(s) known to git", "other"],
    ["", "other"],
  ] as const)("%j is %s", (stderr, kind) => {
    expect(classifyGitError(stderr)).toBe(kind);
  });
});
