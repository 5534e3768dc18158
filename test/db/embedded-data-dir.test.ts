import { once } from "node:events";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/config-error.js";
import { lockDataDir } from "../../src/db/embedded/lock-data-dir.js";
import { openDatabase } from "../../src/db/open-database.js";
import { isProcessAlive, processIdentity, type ProcessIdentity } from "../../src/system/process-identity.js";
import { listeningPort, startAppProcess, type AppProcess } from "../helpers/start-app-process.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";

const running: AppProcess[] = [];
afterEach(async () => {
  for (const app of running.splice(0)) await app.stop();
});
afterAll(() => removeTempDirs());

async function waitForOutput(app: AppProcess, text: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!app.output().includes(text)) {
    if (app.child.exitCode !== null || Date.now() > deadline)
      throw new Error(`never printed ${text}:\n${app.output()}`);
    await sleep(20);
  }
}

/** The app in setup mode (no App registered) on the embedded database in `dataDir`. */
function startApp(dataDir: string): AppProcess {
  const app = startAppProcess({ PORT: "0", DATA_DIR: dataDir, LOG_LEVEL: "info" });
  running.push(app);
  return app;
}

describe("an embedded database directory", { timeout: 240_000 }, () => {
  it("keeps its data across close and reopen", async () => {
    const dir = join(tempDir(), "data", "pglite"); // parents that do not exist yet
    const first = await openDatabase({ pgliteDir: dir });
    await first.executeSql("create table kept (v text)");
    await first.executeSql("insert into kept values ($1)", ["still here"]);
    await first.close();
    expect(existsSync(`${dir}.lock`)).toBe(false); // released

    const second = await openDatabase({ pgliteDir: dir });
    try {
      expect((await second.executeSql("select v from kept")).rows).toEqual([{ v: "still here" }]);
    } finally {
      await second.close();
    }
  });

  it("is opened once: a second open, even in the same process, is refused with the directory and the owner's pid", async () => {
    const dir = join(tempDir(), "pglite");
    const owner = await openDatabase({ pgliteDir: dir });
    try {
      const refusal = await openDatabase({ pgliteDir: dir }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(ConfigError);
      expect((refusal as Error).message).toContain(
        `the embedded database ${dir} is in use by another no-mistakes process (pid ${process.pid})`,
      );
      expect((await owner.executeSql("select 1 as ok")).rows).toEqual([{ ok: 1 }]); // the owner is untouched
    } finally {
      await owner.close();
    }
  });

  it("belongs to one app process: a second start on the same DATA_DIR stops and says who holds it; after a SIGKILL the next start opens it, and a SIGTERM leaves it ready to open", async () => {
    const dataDir = tempDir();
    const first = startApp(dataDir);
    await listeningPort(first);

    const second = startApp(dataDir);
    const [code] = (await once(second.child, "exit")) as [number | null];
    running.splice(running.indexOf(second), 1);
    expect(code).toBe(1);
    expect(second.output()).toContain("no-mistakes cannot start. DATA_DIR is invalid");
    expect(second.output()).toContain(
      `the embedded database ${join(dataDir, "pglite")} is in use by another no-mistakes process (pid ${first.child.pid})`,
    );
    expect(first.child.exitCode).toBeNull(); // the owner runs on

    running.splice(running.indexOf(first), 1);
    first.child.kill("SIGKILL");
    await once(first.child, "exit");
    expect(JSON.parse(readFileSync(join(dataDir, "pglite.lock"), "utf8")).pid).toBe(first.child.pid); // left behind

    const third = startApp(dataDir);
    await listeningPort(third); // the dead owner's lock did not keep it out; PGlite recovered its files
    expect(await third.stop(), third.output()).toBe(0);
    expect(existsSync(join(dataDir, "pglite.lock"))).toBe(false);

    const reopened = await openDatabase({ pgliteDir: join(dataDir, "pglite") });
    try {
      const { rows } = await reopened.executeSql("select count(*)::int as n from drizzle.__drizzle_migrations");
      expect(rows[0]!.n).toBeGreaterThan(0); // migrated at the first start, still there
    } finally {
      await reopened.close();
    }
  });

  it("is closed by the database process itself when its app is killed: no orphan is left, and the next start opens the directory", async () => {
    const dataDir = tempDir();
    const first = startApp(dataDir);
    await listeningPort(first);
    const lock = JSON.parse(readFileSync(join(dataDir, "pglite.lock"), "utf8")) as ProcessIdentity & {
      server: ProcessIdentity;
    };
    expect(lock.pid).toBe(first.child.pid);
    expect(lock.server.pid).not.toBe(first.child.pid);
    expect(isProcessAlive(lock.server)).toBe(true); // the database runs in a process of its own

    running.splice(running.indexOf(first), 1);
    first.child.kill("SIGKILL");
    await once(first.child, "exit");
    const deadline = Date.now() + 5_000;
    while (isProcessAlive(lock.server) && Date.now() < deadline) await sleep(50);
    expect(isProcessAlive(lock.server)).toBe(false); // it noticed its app was gone, closed PGlite and exited

    const second = startApp(dataDir);
    await listeningPort(second);
    expect(await second.stop(), second.output()).toBe(0);
    expect(existsSync(join(dataDir, "pglite.lock"))).toBe(false);
  });

  it("is left ready to open by a SIGTERM that arrives while the app starts: it finishes starting, then stops gracefully", async () => {
    const dataDir = tempDir();
    const app = startApp(dataDir);
    // the database is open and migrated; the server does not listen yet
    await waitForOutput(app, '"msg":"database ready"');
    app.child.kill("SIGTERM");
    const [code, signal] = (await once(app.child, "exit")) as [number | null, string | null];
    running.splice(running.indexOf(app), 1);
    expect({ code, signal }, app.output()).toEqual({ code: 0, signal: null });
    expect(app.output()).toContain('"msg":"stopping: running turns get the grace period');
    expect(existsSync(join(dataDir, "pglite.lock"))).toBe(false);
  });

  it("is taken over from an owner that is gone only once that owner's database process has exited (bounded wait)", async () => {
    const dir = join(tempDir(), "pglite");
    mkdirSync(dir);
    const gone = spawn(process.execPath, ["-e", ""]);
    const goneIdentity = processIdentity(gone.pid!);
    await once(gone, "exit");
    const closing = spawn("sleep", ["30"]);
    try {
      writeFileSync(`${dir}.lock`, JSON.stringify({ ...goneIdentity, server: processIdentity(closing.pid!) }));

      const refusal = await lockDataDir(dir, { serverExitWaitMs: 300 }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(ConfigError);
      expect((refusal as Error).message).toContain(
        `the embedded database ${dir} is still open in process ${closing.pid}`,
      );

      const started = Date.now();
      setTimeout(() => closing.kill("SIGKILL"), 500);
      const lock = await lockDataDir(dir, { serverExitWaitMs: 10_000 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(450); // waited for it
      expect(JSON.parse(readFileSync(`${dir}.lock`, "utf8")).pid).toBe(process.pid);
      lock.release();
      expect(existsSync(`${dir}.lock`)).toBe(false);
    } finally {
      closing.kill("SIGKILL");
    }
  });
});
