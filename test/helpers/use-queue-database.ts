import { afterAll, beforeAll, beforeEach } from "vitest";
import type { DatabaseHandle } from "../../src/db/database.js";
import { createIntakeDeps, type IntakeDeps } from "../../src/intake/intake-deps.js";
import { RunQueue } from "../../src/queue/run-queue.js";
import { captureLogger } from "./capture-logger.js";
import { createTestDatabase, type DatabaseKind, type TestDatabase } from "./test-database.js";

export interface QueueDatabase {
  readonly handle: DatabaseHandle;
  readonly queue: RunQueue;
}

export interface IntakeDatabase extends QueueDatabase {
  /** The intake's dependencies on this database and queue, logging to `capture`: fresh for every test. */
  readonly deps: IntakeDeps;
  readonly capture: ReturnType<typeof captureLogger>;
}

const ready = <T>(value: T | undefined, what: string): T => {
  if (value === undefined) throw new Error(`the ${what} is only there inside tests`);
  return value;
};

/**
 * The hooks of a test block that works with the run queue on a real database (as useFlowDatabase is for
 * flow tests): a migrated database of `kind` with the queue started on it (no maintenance during the
 * tests) before the block, both stopped after it. The fields are read lazily (they exist once
 * `beforeAll` has run).
 */
export function useQueueDatabase(kind: DatabaseKind): QueueDatabase {
  let database: TestDatabase | undefined;
  let queue: RunQueue | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    queue = await RunQueue.start({
      database: database.handle,
      log: captureLogger().log,
      expireInSeconds: 60,
      maintenanceIntervalSeconds: 3600,
    });
  });
  afterAll(async () => {
    await queue?.stop();
    await database?.dispose();
  });
  return {
    get handle() {
      return ready(database, "queue database").handle;
    },
    get queue() {
      return ready(queue, "run queue");
    },
  };
}

/**
 * useQueueDatabase for the intake's tests: before each test the deliveries, runs and jobs are emptied and
 * the intake gets fresh dependencies, logging to a fresh `capture`.
 */
export function useIntakeDatabase(kind: DatabaseKind): IntakeDatabase {
  const database = useQueueDatabase(kind);
  let deps: IntakeDeps | undefined;
  let capture: ReturnType<typeof captureLogger> | undefined;
  beforeEach(async () => {
    await database.handle.executeSql("truncate webhook_deliveries, runs cascade; truncate pgboss.job");
    capture = captureLogger();
    deps = createIntakeDeps({ database: database.handle, queue: database.queue, log: capture.log });
  });
  return {
    get handle() {
      return database.handle;
    },
    get queue() {
      return database.queue;
    },
    get deps() {
      return ready(deps, "intake's deps");
    },
    get capture() {
      return ready(capture, "captured log");
    },
  };
}
