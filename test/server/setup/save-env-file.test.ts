import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseEnv } from "node:util";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { saveEnvFile } from "../../../src/server/setup/save-env-file.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";

const PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAnew\nline2\n-----END RSA PRIVATE KEY-----\n";
/** What Probot's setup flow hands its writer (the key already in quotes). */
const FROM_SETUP = { APP_ID: "4242", PRIVATE_KEY: `"${PEM}"`, WEBHOOK_SECRET: "webhook-secret-from-github" };

const saved = { ...process.env };
afterEach(() => {
  for (const key of Object.keys(FROM_SETUP)) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
});
afterAll(removeTempDirs);

describe("saveEnvFile (where the setup flow saves the new App)", () => {
  it("a new file: only its owner may read it, and it reads back as the values given (the key's newlines too)", () => {
    const path = join(tempDir(), ".env");
    saveEnvFile(path, FROM_SETUP);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(parseEnv(readFileSync(path, "utf8"))).toEqual({
      APP_ID: "4242",
      PRIVATE_KEY: PEM,
      WEBHOOK_SECRET: "webhook-secret-from-github",
    });
    expect(process.env.APP_ID).toBe("4242"); // as Probot's writer: the running process sees them too
  });

  it("an existing file: its other lines are kept, comments included; earlier settings of the keys are replaced, a key over several lines whole", () => {
    const path = join(tempDir(), ".env");
    writeFileSync(
      path,
      [
        "# the agent's key",
        "ANTHROPIC_API_KEY=sk-kept",
        "APP_ID=1",
        'PRIVATE_KEY="-----BEGIN RSA PRIVATE KEY-----',
        "MIIEold",
        '-----END RSA PRIVATE KEY-----"',
        "PUBLIC_URL=https://review.example.com",
        "",
      ].join("\n"),
    );
    saveEnvFile(path, FROM_SETUP);
    const text = readFileSync(path, "utf8");
    expect(text.split("\n").slice(0, 3)).toEqual([
      "# the agent's key",
      "ANTHROPIC_API_KEY=sk-kept",
      "PUBLIC_URL=https://review.example.com",
    ]);
    expect(text).not.toContain("MIIEold");
    expect(parseEnv(text)).toEqual({
      ANTHROPIC_API_KEY: "sk-kept",
      PUBLIC_URL: "https://review.example.com",
      APP_ID: "4242",
      PRIVATE_KEY: PEM,
      WEBHOOK_SECRET: "webhook-secret-from-github",
    });
  });
});
