import { describe, expect, it } from "vitest";
import { reproductionOf } from "../../../src/pipeline/checks/run-reproducer.js";
import { sandboxRefusal } from "../../../src/pipeline/checks/sandbox-refusal.js";

const failed = (output: string) => ({
  exitCode: 1,
  signal: null,
  timedOut: false,
  durationMs: 10,
  output,
  outputDigest: "",
});

describe("sandboxRefusal: a failure the sandbox caused proves nothing of the code", () => {
  it.each([
    ["node, DNS", "Error: getaddrinfo EAI_AGAIN example.com", "getaddrinfo"],
    ["node, loopback", "connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"],
    [
      "python, DNS",
      "socket.gaierror: [Errno -3] Temporary failure in name resolution",
      "Temporary failure in name resolution",
    ],
    ["curl", "curl: (7) Couldn't connect to server: Network is unreachable", "Network is unreachable"],
  ])("the network (%s)", (_, output, sign) => {
    expect(sandboxRefusal(output)).toBe(`it tried to reach the network (${sign}), which a reproducer does not have`);
  });

  it.each([
    ["cat, climbing out", "cat: ../../data/.env: No such file or directory", "../../data/.env"],
    ["node, absolute", "Error: ENOENT: no such file or directory, open '/root/.ssh/id_rsa'", "/root/.ssh/id_rsa"],
    ["python", "FileNotFoundError: [Errno 2] No such file or directory: '/var/lib/app/secret'", "/var/lib/app/secret"],
  ])("a path outside the checkout (%s)", (_, output, path) => {
    expect(sandboxRefusal(output)).toBe(
      `it tried to read ${JSON.stringify(path)}, outside the checkout the sandbox shows`,
    );
  });

  it.each([
    ["an assertion", "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\nundefined !== 3"],
    ["a missing file in the checkout", "Error: ENOENT: no such file or directory, open '/workspace/fixtures/a.json'"],
    ["a relative missing file", "cat: fixtures/a.json: No such file or directory"],
    ["the private /tmp", "FileNotFoundError: [Errno 2] No such file or directory: '/tmp/out.txt'"],
    [
      "a stack trace in the checkout",
      "    at Object.<anonymous> (/workspace/lib.test.js:2:40)\nAssertionError: 4.0 != 3",
    ],
  ])("a failure of the code's own (%s) is not one", (_, output) => {
    expect(sandboxRefusal(output)).toBeUndefined();
  });

  it("reproductionOf: such a failure is broken, never reproduced; an assertion is reproduced", () => {
    expect(reproductionOf(failed("getaddrinfo EAI_AGAIN registry.npmjs.org"), undefined).outcome).toBe("broken");
    expect(reproductionOf(failed("cat: /etc/shadow-x: No such file or directory"), undefined).outcome).toBe("broken");
    expect(reproductionOf(failed("AssertionError: 4.0 != 3"), undefined)).toEqual({
      outcome: "reproduced",
      why: "it exited 1",
    });
  });
});
