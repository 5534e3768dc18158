import { describe, expect, it } from "vitest";
import { AgentError } from "../../src/agents/agent-error.js";
import { createSecretRedactor, REDACTED } from "../../src/logging/redact-secrets.js";
import { captureLogger } from "../helpers/capture-logger.js";

const SECRET = "s3cr3t-webhook-value";
const PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx1y2z3\nQWERTYkeybody==\n-----END RSA PRIVATE KEY-----";
const GHS = `ghs_${"A1b2C3d4E5".repeat(3)}`;
const GHP = `ghp_${"Z9y8X7w6V5".repeat(3)}`;
const PAT = `github_pat_11ABCDEFG_${"k".repeat(40)}`;

describe("createSecretRedactor", () => {
  const ODD = 'multi\nline "quoted" secret';
  const redact = createSecretRedactor([SECRET, "short", ODD]);

  it.each([
    ["a known secret value", `the secret is ${SECRET}!`, `the secret is ${REDACTED}!`],
    ["a known secret twice", `${SECRET}/${SECRET}`, `${REDACTED}/${REDACTED}`],
    ["a known secret as it reads inside JSON", JSON.stringify({ key: ODD }), `{"key":"${REDACTED}"}`],
    ["an installation token", `token ${GHS} here`, `token ${REDACTED} here`],
    ["a personal access token", `use ${GHP}`, `use ${REDACTED}`],
    ["a fine-grained token", `pat=${PAT};`, `pat=${REDACTED};`],
    ["a legacy installation token", `v1.${"ab12".repeat(10)}`, REDACTED],
    ["an Anthropic key", "key sk-ant-api03-abcdefghijklmnop end", `key ${REDACTED} end`],
    ["an Authorization header", "Authorization: token xyz123", `Authorization: token ${REDACTED}`],
    ["a bearer header", "authorization: Bearer abc.def.ghi", `authorization: Bearer ${REDACTED}`],
    ["an Authorization header in JSON", '{"Authorization":"token xyz123"}', `{"Authorization":"token ${REDACTED}"}`],
    [
      "credentials in a clone URL",
      "git clone https://x-access-token:abc123@github.com/octo/repo.git",
      `git clone https://x-access-token:${REDACTED}@github.com/octo/repo.git`,
    ],
    [
      "any PEM private key",
      "key:\n-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\nok",
      `key:\n${REDACTED}\nok`,
    ],
    ["nothing in ordinary text", "reviewed 3 files, found 2 problems", "reviewed 3 files, found 2 problems"],
    ["nothing for a secret shorter than 8 characters", "a short word", "a short word"],
    ["nothing for a token-like prefix alone", "ghs_ and github_pat_ are prefixes", "ghs_ and github_pat_ are prefixes"],
  ])("redacts %s", (_name, input, expected) => {
    expect(redact(input)).toBe(expected);
  });
});

describe("createLogger", () => {
  /** Logs with the capture logger and returns what it wrote, checking that it did not leak SECRET. */
  function logged(write: (log: ReturnType<typeof captureLogger>["log"]) => void) {
    const capture = captureLogger([SECRET, PEM]);
    write(capture.log);
    return capture;
  }

  it.each([
    ["in the message", (log) => log.info(`webhook secret is ${SECRET}`)],
    ["in a message argument", (log) => log.info("webhook secret is %s", SECRET)],
    ["in an %o argument", (log) => log.info("settings %o", { webhook: { value: SECRET } })],
    ["in a nested object field", (log) => log.info({ request: { body: { note: `x ${SECRET} y` } } }, "received")],
    ["in an array", (log) => log.info({ values: ["a", SECRET] }, "values")],
    [
      "in an object nested very deep",
      (log) => log.info({ a: { b: { c: { d: { e: { f: { g: { h: SECRET } } } } } } } }, "deep"),
    ],
    ["in an Error logged as err", (log) => log.error({ err: new Error(`bad secret ${SECRET}`) }, "failed")],
    ["in an Error logged alone (its message becomes msg)", (log) => log.error(new Error(`bad secret ${SECRET}`))],
    [
      "in an Error's cause",
      (log) => log.error({ err: new Error("outer", { cause: new Error(`inner ${SECRET}`) }) }, "failed"),
    ],
    ["in an Error nested in an object", (log) => log.warn({ result: { error: new Error(SECRET) } }, "failed")],
    ["in a child logger's bindings", (log) => log.child({ installation: SECRET }).info("hello")],
    ["as the private key", (log) => log.info({ config: { key: PEM } }, "loaded")],
  ] satisfies [string, (log: ReturnType<typeof captureLogger>["log"]) => void][])(
    "never prints a known secret %s",
    (_where, write) => {
      const { text } = logged(write);
      expect(text()).not.toBe("");
      expect(text()).not.toContain(SECRET);
      expect(text()).not.toContain("QWERTYkeybody");
      expect(text()).toContain(REDACTED);
    },
  );

  it.each([
    ["an installation token", GHS],
    ["a personal access token", GHP],
    ["a fine-grained token", PAT],
    ["an Authorization header", "xyz-token-value"],
    ["a clone URL's password", "clone-url-password"],
    ["a PEM private key body", "QWERTYkeybody"],
  ])("never prints %s, even when nobody told it the value", (_what, value) => {
    const { log, text } = captureLogger();
    log.info(`request with ${GHS}`);
    log.info({ headers: { Authorization: "token xyz-token-value" } }, "headers");
    log.info({ note: "Authorization: token xyz-token-value" }, "note");
    log.info({ token: GHP, pat: PAT }, "tokens");
    log.info({ remote: "https://x-access-token:clone-url-password@github.com/octo/repo.git" }, "cloning");
    log.error({ err: new Error(`cannot parse ${PEM}`) }, "key");
    expect(text()).not.toContain(value);
  });

  it("keeps ordinary text, fields, and child bindings", () => {
    const { log, lines } = captureLogger([SECRET]);
    const child = log.child({ runId: 7, role: "reviewer" });
    child.info({ files: 3, repo: "octo/repo" }, "review finished");

    expect(lines()).toEqual([
      expect.objectContaining({
        level: 30,
        runId: 7,
        role: "reviewer",
        files: 3,
        repo: "octo/repo",
        msg: "review finished",
      }),
    ]);
  });

  it("keeps an Error's type, message and extra fields, with only the secret removed", () => {
    const { log, lines } = captureLogger([SECRET]);
    const error = Object.assign(new AgentError("timeout", `agent timed out with ${SECRET}`), { attempt: 2 });
    log.error({ err: error }, "agent failed");

    const [line] = lines();
    expect(line).toMatchObject({
      msg: "agent failed",
      err: { type: "AgentError", message: `agent timed out with ${REDACTED}`, kind: "timeout", attempt: 2 },
    });
    expect((line!.err as { stack: string }).stack).toContain("agent timed out with");
  });

  it("replaces well-known secret fields whatever their value", () => {
    const { log, lines } = captureLogger();
    log.info({ token: "abc", app: { privateKey: "k", webhookSecret: "w" }, headers: { authorization: "x" } }, "fields");
    expect(lines()[0]).toMatchObject({
      token: REDACTED,
      app: { privateKey: REDACTED, webhookSecret: REDACTED },
      headers: { authorization: REDACTED },
    });
  });

  it("writes valid JSON lines even after redacting", () => {
    const { log, lines } = captureLogger([SECRET, PEM]);
    log.info({ pem: PEM, quoted: `"${SECRET}"` }, `with ${SECRET}`);
    expect(lines()[0]).toMatchObject({ pem: REDACTED, quoted: `"${REDACTED}"`, msg: `with ${REDACTED}` });
  });

  it("respects the level", () => {
    const { log, lines } = captureLogger([], "warn");
    log.info("hidden");
    log.warn("shown");
    expect(lines().map((l) => l.msg)).toEqual(["shown"]);
  });
});
