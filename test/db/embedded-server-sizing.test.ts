import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import {
  DEFAULT_EMBEDDED_BUFFERS_MB,
  EMBEDDED_DB_NODE_OPTIONS,
  startEmbeddedServer,
  type EmbeddedServer,
} from "../../src/db/embedded/start-embedded-server.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";

afterAll(() => removeTempDirs());

/** Asks the server for PostgreSQL settings over its socket, as any client would. */
async function show(server: EmbeddedServer, names: string[]): Promise<Record<string, string>> {
  const sql = postgres({
    host: server.socketDir,
    port: 5432,
    user: "postgres",
    database: "postgres",
    max: 1,
    onnotice: () => {},
  });
  try {
    const out: Record<string, string> = {};
    for (const name of names) out[name] = Object.values((await sql.unsafe(`show ${name}`))[0]!)[0] as string;
    return out;
  } finally {
    await sql.end();
  }
}

/** The command line of a running process, as the kernel has it. */
function commandLine(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
}

describe("the embedded database's size", { timeout: 120_000 }, () => {
  it("runs with small shared buffers by default and with as many as asked for, in a process started with its own Node options", async () => {
    const small = await startEmbeddedServer(join(tempDir(), "pglite"));
    try {
      expect(await show(small, ["shared_buffers", "maintenance_work_mem"])).toEqual({
        shared_buffers: `${DEFAULT_EMBEDDED_BUFFERS_MB}MB`,
        maintenance_work_mem: `${DEFAULT_EMBEDDED_BUFFERS_MB}MB`,
      });
      expect(commandLine(small.pid).slice(1, 1 + EMBEDDED_DB_NODE_OPTIONS.length)).toEqual([
        ...EMBEDDED_DB_NODE_OPTIONS,
      ]);
    } finally {
      await small.stop();
    }
    const large = await startEmbeddedServer(join(tempDir(), "pglite"), { sharedBuffersMb: 256 });
    try {
      // PostgreSQL's own 128 MB is below the buffers asked for here: the setting is what took effect.
      expect(await show(large, ["shared_buffers", "maintenance_work_mem"])).toEqual({
        shared_buffers: "256MB",
        maintenance_work_mem: "64MB",
      });
    } finally {
      await large.stop();
    }
  });

  it("makes a new data directory under a draft name renamed into place, and reopens it with the setting of the day", async () => {
    const parent = tempDir();
    const dir = join(parent, "pglite");
    mkdirSync(dir); // an empty folder made beforehand (a mount point) is taken
    const first = await startEmbeddedServer(dir);
    await first.stop();
    expect(existsSync(join(dir, "PG_VERSION"))).toBe(true);
    expect(readdirSync(parent).filter((name) => name.includes("initdb"))).toEqual([]);

    const again = await startEmbeddedServer(dir, { sharedBuffersMb: 24 });
    try {
      expect((await show(again, ["shared_buffers"])).shared_buffers).toBe("24MB");
    } finally {
      await again.stop();
    }
  });

  it("refuses a data directory that holds files but no database, and leaves the files alone", async () => {
    const dir = join(tempDir(), "pglite");
    mkdirSync(dir);
    writeFileSync(join(dir, "notes.txt"), "mine\n");
    const refusal = await startEmbeddedServer(dir).then(
      async (server) => {
        await server.stop();
        return undefined;
      },
      (error: unknown) => error as Error,
    );
    expect(refusal?.message).toContain(`${dir} holds files but no database (no PG_VERSION)`);
    expect(readdirSync(dir)).toEqual(["notes.txt"]);
  });
});
