import nock from "nock";
import { afterAll, afterEach, beforeAll } from "vitest";
import type { DatabaseHandle } from "../../src/db/database.js";
import type { FlowFixture } from "./flow-fixture.js";
import { removeTempDirs } from "./temp-dir.js";
import { createTestDatabase, type TestDatabase } from "./test-database.js";

/**
 * The hooks every flow test file needs: one PGlite database for the file, nock closed to the network
 * (but for `allowHost`, e.g. a fake model server on 127.0.0.1), the current test's fixture stopped after
 * it, everything removed at the end. `handle` is read lazily (the database exists once `beforeAll` has run).
 */
export function useFlowDatabase(
  fixture: () => FlowFixture | undefined,
  options: { allowHost?: string } = {},
): { readonly handle: DatabaseHandle } {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    nock.disableNetConnect();
    if (options.allowHost) nock.enableNetConnect(options.allowHost);
  });
  afterEach(async () => {
    await fixture()?.stop();
  });
  afterAll(async () => {
    await database?.dispose();
    nock.enableNetConnect();
    removeTempDirs();
  });
  return {
    get handle(): DatabaseHandle {
      if (!database) throw new Error("the flow database is only there inside tests");
      return database.handle;
    },
  };
}
