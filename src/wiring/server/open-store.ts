import { join } from "node:path";
import type { Logger } from "pino";
import type { EnvConfig } from "../../config/env/env-config.js";
import type { DatabaseHandle } from "../../db/database.js";
import { migrateDatabase } from "../../db/migrate-database.js";
import { openDatabase } from "../../db/open-database.js";

/** The store: the database (PostgreSQL at DATABASE_URL, else the embedded one in the data dir), migrated. */
export async function openStore(config: EnvConfig, log: Logger): Promise<DatabaseHandle> {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: join(config.dataDir, "pglite"),
    embeddedBuffersMb: config.embeddedBuffersMb,
  });
  await migrateDatabase(database);
  log.info({ database: database.kind }, "database ready");
  return database;
}
