import { join } from "node:path";
import type { EnvConfig } from "../config/env/env-config.js";
import { ConfigError } from "../config/config-error.js";
import { DATABASE_URL_FIX, DatabaseUnavailableError } from "../db/database-unavailable-error.js";
import { openDatabase } from "../db/open-database.js";
import { fail, pass, type DoctorCheck } from "./doctor-check.js";

/**
 * Opens the database the app would (DATABASE_URL, else the embedded one in DATA_DIR) and asks it
 * `select 1`. The embedded database has one owner: while the app runs, it holds DATA_DIR's lock, and
 * that is said so — the running app is the proof it opens.
 */
export async function checkDatabase(config: Pick<EnvConfig, "databaseUrl" | "dataDir">): Promise<DoctorCheck> {
  const name = "database";
  const kind = config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `embedded, in ${join(config.dataDir, "pglite")}`;
  let database;
  try {
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      pgliteDir: join(config.dataDir, "pglite"),
      maxConnections: 1,
    });
  } catch (error) {
    if (error instanceof ConfigError && error.problems.some((p) => p.includes("in use by another no-mistakes process")))
      return pass(name, `${kind}: in use by a running app (not opened here)`);
    if (error instanceof DatabaseUnavailableError) return fail(name, error.detail, error.fix);
    return fail(name, `${kind} cannot be opened (${(error as Error).message})`, fixFor(config));
  }
  try {
    await database.ping();
    return pass(name, `${kind}: select 1 answered`);
  } catch (error) {
    return fail(name, `${kind} did not answer select 1 (${(error as Error).message})`, fixFor(config));
  } finally {
    await database.close();
  }
}

function fixFor(config: Pick<EnvConfig, "databaseUrl">): string {
  return config.databaseUrl
    ? DATABASE_URL_FIX
    : "check that DATA_DIR is writable, or set DATABASE_URL to a PostgreSQL database";
}
