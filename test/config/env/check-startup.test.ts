import { generateKeyPairSync } from "node:crypto";
import { once } from "node:events";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { checkStartup } from "../../../src/config/env/check-startup.js";
import { ConfigError } from "../../../src/config/config-error.js";
import { startAppProcess, type AppProcess } from "../../helpers/start-app-process.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";

const RSA_KEY = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs1", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
}).privateKey;
const EC_KEY = generateKeyPairSync("ec", {
  namedCurve: "P-256",
  privateKeyEncoding: { type: "pkcs8", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
}).privateKey;
/** Looks like a key (the PEM header passes) but is not one: a paste cut short, say. */
const MANGLED_KEY = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAcutshort\n-----END RSA PRIVATE KEY-----\n";

const servers: Server[] = [];
const apps: AppProcess[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) server.close();
  for (const app of apps.splice(0)) await app.stop();
});
afterAll(removeTempDirs);

/** A port something else listens on (on 127.0.0.1). */
async function busyPort(): Promise<number> {
  const server = createServer();
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return (server.address() as { port: number }).port;
}

/** A registered App's settings that pass every check, with `change` applied. */
function env(change: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    APP_ID: "1",
    PRIVATE_KEY: RSA_KEY,
    WEBHOOK_SECRET: "webhook-secret-123",
    AGENT: "fake",
    DATA_DIR: join(tempDir(), "data"),
    HOST: "127.0.0.1",
    PORT: "0",
    ...change,
  };
}

async function problemsOf(settings: NodeJS.ProcessEnv): Promise<string[]> {
  const error = await checkStartup(settings).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return (error as ConfigError).problems;
}

/** A path under a regular file: no one, root included, can create a directory there. */
function pathUnderAFile(): string {
  const file = join(tempDir(), "a-file");
  writeFileSync(file, "");
  return join(file, "data");
}

describe("checkStartup", () => {
  it("passes good settings: DATA_DIR is created, and the write probe leaves nothing behind", async () => {
    const settings = env();
    const config = await checkStartup(settings);
    expect(config.app?.appId).toBe(1);
    expect(existsSync(settings.DATA_DIR!)).toBe(true);
    expect(readdirSync(settings.DATA_DIR!)).toEqual([]);
  });

  it("a DATA_DIR the app cannot create or write: one line naming DATA_DIR and the path", async () => {
    const dir = pathUnderAFile();
    expect(await problemsOf(env({ DATA_DIR: dir }))).toEqual([
      expect.stringMatching(
        new RegExp(`^DATA_DIR: cannot create and write "${dir}" \\(a file is in the way, ENOTDIR\\)`),
      ),
    ]);
  });

  it("without APP_ID (the setup flow runs): an ENV_FILE it could not save the App in is one line naming ENV_FILE", async () => {
    const file = join(pathUnderAFile(), ".env");
    expect(await problemsOf(env({ APP_ID: "", ENV_FILE: file }))).toEqual([
      `ENV_FILE: the setup flow saves the new App's credentials in "${file}", which cannot be written (a file is in the way, ENOTDIR); set ENV_FILE to a file the app may write (in a container, on its volume: /data/.env)`,
    ]);
    // Registered, the setup flow does not run: nothing is written there.
    expect((await checkStartup(env({ ENV_FILE: file }))).envFile).toBe(file);
    // A worker never runs it: it waits for the App, and says only that.
    expect(
      await problemsOf(env({ APP_ID: "", ENV_FILE: file, ROLE: "worker", DATABASE_URL: "postgres://u:p@db:5432/nm" })),
    ).toEqual([expect.stringMatching(/^APP_ID: required with ROLE=worker/)]);
  });

  it.each([
    ["a mangled PEM", { PRIVATE_KEY: MANGLED_KEY }, /^PRIVATE_KEY: cannot sign a GitHub App token with this key/],
    ["an EC key", { PRIVATE_KEY: EC_KEY }, /^PRIVATE_KEY: is a ec key; a GitHub App key is RSA/],
  ])("PRIVATE_KEY that cannot sign a JWT (%s): one line naming PRIVATE_KEY", async (_, change, line) => {
    expect(await problemsOf(env(change))).toEqual([expect.stringMatching(line)]);
  });

  it("PRIVATE_KEY_PATH to a key that cannot sign: the line names PRIVATE_KEY_PATH and the file", async () => {
    const path = join(tempDir(), "app.pem");
    writeFileSync(path, MANGLED_KEY);
    expect(await problemsOf(env({ PRIVATE_KEY: "", PRIVATE_KEY_PATH: path }))).toEqual([
      expect.stringMatching(new RegExp(`^PRIVATE_KEY_PATH: "${path}": cannot sign a GitHub App token`)),
    ]);
  });

  it('an empty key file: PRIVATE_KEY_PATH "is empty", not "required"', async () => {
    const path = join(tempDir(), "app.pem");
    writeFileSync(path, "\n");
    expect(await problemsOf(env({ PRIVATE_KEY: "", PRIVATE_KEY_PATH: path }))).toEqual([
      `PRIVATE_KEY_PATH: "${path}" is empty (it should hold the .pem file GitHub gave you)`,
    ]);
  });

  it("a PORT in use on the HOST the server will listen on: one line naming PORT", async () => {
    const port = await busyPort();
    expect(await problemsOf(env({ PORT: String(port) }))).toEqual([
      `PORT: ${port} on 127.0.0.1 is in use by another process; stop it, or set PORT to a free port`,
    ]);
  });

  it("a METRICS_PORT in use: one line naming METRICS_PORT", async () => {
    const port = await busyPort();
    expect(await problemsOf(env({ METRICS_PORT: String(port) }))).toEqual([
      `METRICS_PORT: ${port} on 127.0.0.1 is in use by another process; stop it, or set METRICS_PORT to a free port`,
    ]);
  });

  it("several bad settings at once: every one reported in one start, the environment's values first", async () => {
    const port = await busyPort();
    const dir = pathUnderAFile();
    const problems = await problemsOf(
      env({ LOG_LEVEL: "loud", AGENT_TIMEOUT: "soon", DATA_DIR: dir, PRIVATE_KEY: MANGLED_KEY, PORT: String(port) }),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^LOG_LEVEL: /),
      expect.stringMatching(/^AGENT_TIMEOUT: "soon" is not a duration/),
      expect.stringMatching(/^DATA_DIR: cannot create and write/),
      expect.stringMatching(/^PRIVATE_KEY: cannot sign/),
      expect.stringMatching(new RegExp(`^PORT: ${port} on 127.0.0.1 is in use`)),
    ]);
  });
});

describe("npm start with bad settings", { timeout: 60_000 }, () => {
  it("reports every problem in one start, one line each, before the database starts; exits 1", async () => {
    const port = await busyPort();
    const dir = pathUnderAFile();
    const app = startAppProcess({
      APP_ID: "1",
      PRIVATE_KEY: MANGLED_KEY,
      WEBHOOK_SECRET: "webhook-secret-123",
      AGENT: "fake",
      DATA_DIR: dir,
      HOST: "127.0.0.1",
      PORT: String(port),
    });
    apps.push(app);
    const [code] = (await once(app.child, "exit")) as [number | null];
    expect(code).toBe(1);
    const output = app.output();
    expect(output.split("\n").filter((l) => l.startsWith("  - "))).toEqual([
      expect.stringMatching(new RegExp(`^  - DATA_DIR: cannot create and write "${dir}"`)),
      expect.stringMatching(/^ {2}- PRIVATE_KEY: cannot sign a GitHub App token/),
      expect.stringMatching(new RegExp(`^  - PORT: ${port} on 127.0.0.1 is in use`)),
    ]);
    expect(output).toContain("no-mistakes cannot start.");
    expect(output).not.toContain("database ready");
    expect(output).not.toMatch(/\n\s+at /); // no stack trace
  });

  // Node's recursive mkdir spins forever where a mkdir answers ENOENT under a parent that exists (/proc):
  // the start used to hang there with no output. The deadline is the test's, generous for a cold start.
  it.each([
    ["/proc/no-mistakes-test/data", "proc"],
    ["/sys/no-mistakes-test", "sysfs"],
  ])(
    "DATA_DIR=%s: exits at once with one line naming DATA_DIR and what to do, instead of hanging",
    async (dir, filesystem) => {
      const app = startAppProcess({ AGENT: "fake", DATA_DIR: dir, HOST: "127.0.0.1", PORT: "0" });
      apps.push(app);
      const exited = once(app.child, "exit") as Promise<[number | null]>;
      const deadline = new Promise<"hung">((r) => setTimeout(() => r("hung"), 45_000).unref());
      const outcome = await Promise.race([exited, deadline]);
      expect(outcome, app.output()).toEqual([1, null]);
      expect(
        app
          .output()
          .split("\n")
          .filter((l) => l.startsWith("  - ")),
      ).toEqual([
        `  - DATA_DIR: "${dir}" is on ${filesystem}, a filesystem the kernel makes up, where nothing can be stored; set DATA_DIR to a directory on a disk the app may write (the default is ./.data)`,
      ]);
      expect(app.output()).not.toMatch(/\n\s+at /);
    },
  );
});
