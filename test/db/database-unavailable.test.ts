import { once } from "node:events";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { DATABASE_URL_FIX } from "../../src/db/database-unavailable-error.js";
import { checkDatabase } from "../../src/doctor/check-database.js";
import { freePort } from "../helpers/free-port.js";
import { startAppProcess, type AppProcess } from "../helpers/start-app-process.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { adminUrl } from "../helpers/test-database.js";

const PASSWORD = "s3cret-Passw0rd-not-to-print";
const apps: AppProcess[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.stop();
  for (const server of servers.splice(0)) server.close();
});
afterAll(removeTempDirs);

/**
 * A PostgreSQL server as far as a login goes: it asks for the password and refuses it as PostgreSQL does
 * (28P01). The machine's PostgreSQL trusts every local connection, so it cannot refuse a password itself.
 */
async function refusingPostgres(): Promise<number> {
  const server = createServer((socket: Socket) => {
    let messages = 0;
    socket.on("data", () => {
      if (++messages === 1) {
        // the startup message: ask for the password in clear text
        socket.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3]));
        return;
      }
      if (messages > 2) return; // the refusal is sent; the connection is closing
      const fields = ["SFATAL", "VFATAL", "C28P01", 'Mpassword authentication failed for user "nm_test"'];
      const body = Buffer.concat([...fields.map((f) => Buffer.from(`${f}\0`)), Buffer.from([0])]);
      const head = Buffer.alloc(5);
      head.write("E");
      head.writeInt32BE(body.length + 4, 1);
      socket.end(Buffer.concat([head, body]));
    });
  });
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return (server.address() as { port: number }).port;
}

/** The test server's URL with this file's password and a database that does not exist. */
function missingDatabaseUrl(): string {
  const url = new URL(adminUrl());
  url.password = PASSWORD;
  url.pathname = "/no_such_database_here";
  return url.href;
}

/** What the line shows of a URL: everything but the password. */
function shown(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  return `${url.protocol}//${url.username}@${url.host}${url.pathname}`;
}

async function startWith(databaseUrl: string): Promise<{ code: number | null; output: string }> {
  const app = startAppProcess({
    AGENT: "fake",
    DATA_DIR: join(tempDir(), "data"),
    HOST: "127.0.0.1",
    PORT: "0",
    DATABASE_URL: databaseUrl,
  });
  apps.push(app);
  const [code] = (await once(app.child, "exit")) as [number | null];
  return { code, output: app.output() };
}

describe(
  "a DATABASE_URL the app cannot use: one line naming it, without the password; exit 1",
  { timeout: 60_000 },
  () => {
    // [what, the URL, the line expected for it]
    const cases: [string, () => Promise<string>, (url: string) => string][] = [
      [
        "not a URL",
        async () => `not a url ${PASSWORD}`,
        () =>
          "DATABASE_URL: must start with postgres:// or postgresql:// (leave it unset to use the embedded database)",
      ],
      [
        "the wrong scheme",
        async () => `mysql://nm_test:${PASSWORD}@127.0.0.1:3306/nm_test`,
        () =>
          "DATABASE_URL: must start with postgres:// or postgresql:// (leave it unset to use the embedded database)",
      ],
      [
        "a URL the driver cannot read (port out of range)",
        async () => `postgres://nm_test:${PASSWORD}@127.0.0.1:99999/nm_test`,
        () =>
          "DATABASE_URL: is not a valid URL; write it as postgres://user:password@host:5432/database, with special characters in the password percent-encoded",
      ],
      [
        "a host that refuses the connection",
        async () => `postgres://nm_test:${PASSWORD}@127.0.0.1:${await freePort()}/nm_test`,
        (url) => `DATABASE_URL: cannot connect to ${shown(url)} (connection refused); ${DATABASE_URL_FIX}`,
      ],
      [
        "a wrong password",
        async () => `postgres://nm_test:${PASSWORD}@127.0.0.1:${await refusingPostgres()}/nm_test`,
        (url) =>
          `DATABASE_URL: cannot connect to ${shown(url)} (password authentication failed for user "nm_test"); ${DATABASE_URL_FIX}`,
      ],
      [
        "a database that does not exist",
        async () => missingDatabaseUrl(),
        (url) =>
          `DATABASE_URL: cannot connect to ${shown(url)} (database "no_such_database_here" does not exist); ${DATABASE_URL_FIX}`,
      ],
    ];

    it.each(cases)("%s", async (_, url, line) => {
      const databaseUrl = await url();
      const { code, output } = await startWith(databaseUrl);
      expect(code, output).toBe(1);
      expect(output).toContain("no-mistakes cannot start.");
      expect(output.split("\n").filter((l) => l.startsWith("  - "))).toEqual([`  - ${line(databaseUrl)}`]);
      expect(output).not.toContain(PASSWORD);
      expect(output).not.toMatch(/\n\s+at /); // no stack trace
      expect(output).not.toContain("database ready");
    });
  },
);

describe("npm run doctor's database check", () => {
  it("says what the start says, in the same words", async () => {
    const port = await freePort();
    const check = await checkDatabase({
      databaseUrl: `postgres://nm_test:${PASSWORD}@127.0.0.1:${port}/nm_test`,
      dataDir: tempDir(),
    });
    expect(check).toEqual({
      name: "database",
      ok: false,
      detail: `cannot connect to postgres://nm_test@127.0.0.1:${port}/nm_test (connection refused)`,
      fix: DATABASE_URL_FIX,
    });
  });
});
