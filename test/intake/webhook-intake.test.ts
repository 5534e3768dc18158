import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { applyRecord, applyRecords, applyTogether } from "../../src/intake/apply-record.js";
import type { IntakeDeps } from "../../src/intake/intake-deps.js";
import { classifyApplyError } from "../../src/intake/classify-apply-error.js";
import type { IntakeRecord, PullRequestRecord } from "../../src/intake/intake-record.js";
import { IntakeRefusedError, WebhookIntake } from "../../src/intake/webhook-intake.js";
import { RUN_QUEUE } from "../../src/queue/queue-names.js";
import { databaseKinds } from "../helpers/test-database.js";
import { pullRequestRecord } from "../helpers/intake-records.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { useIntakeDatabase } from "../helpers/use-queue-database.js";

const kinds = await databaseKinds();
afterAll(() => removeTempDirs());

let n = 0;
/** A push to PR `pr` of repository 4242, `updatedAt` seconds into the day. */
function push(pr: number, updatedAt: number, overrides: Partial<PullRequestRecord["run"]> = {}): PullRequestRecord {
  const id = ++n;
  return pullRequestRecord(`d-${id}`, {
    prNumber: pr,
    title: `Change ${pr}`,
    body: "Please review.",
    headRef: `feature-${pr}`,
    headSha: id.toString(16).padStart(40, "0"),
    prUpdatedAt: new Date(Date.UTC(2026, 10, 29, 0, 0, updatedAt)).toISOString(),
    ...overrides,
  });
}

describe("classifyApplyError", () => {
  it.each([
    ["a refused connection", Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }), "database"],
    [
      "postgres.js losing its connection",
      Object.assign(new Error("write CONNECTION_CLOSED"), { code: "CONNECTION_CLOSED" }),
      "database",
    ],
    [
      "an administrator shutdown (57P01)",
      Object.assign(new Error("terminating connection"), { code: "57P01" }),
      "database",
    ],
    ["a deadlock (40P01)", Object.assign(new Error("deadlock detected"), { code: "40P01" }), "database"],
    ["too many connections (53300)", Object.assign(new Error("too many clients"), { code: "53300" }), "database"],
    [
      "a database not accepting connections (55000)",
      Object.assign(new Error("not accepting"), { code: "55000" }),
      "database",
    ],
    [
      "Drizzle's wrapper around a connection error",
      new Error("Failed query", { cause: Object.assign(new Error("x"), { code: "08006" }) }),
      "database",
    ],
    ["bad data (22P05)", Object.assign(new Error("unsupported Unicode escape sequence"), { code: "22P05" }), "record"],
    ["a constraint (23514)", Object.assign(new Error("violates check constraint"), { code: "23514" }), "record"],
    ["a bug", new TypeError("cannot read properties of undefined"), "record"],
  ])("%s → %s", (_name, error, kind) => {
    expect(classifyApplyError(error)).toBe(kind);
  });
});

describe.each(kinds)("WebhookIntake over the real appliers (%s)", (kind) => {
  const database = useIntakeDatabase(kind);
  const opened: WebhookIntake[] = [];
  afterAll(async () => {
    for (const intake of opened) await intake.stop(100);
  });

  const sql = async (text: string, params: unknown[] = []) => (await database.handle.executeSql(text, params)).rows;
  const deliveries = async () =>
    (await sql("select delivery_id from webhook_deliveries order by received_at, delivery_id")).map(
      (r) => r.delivery_id as string,
    );
  const open = (
    dir: string,
    apply: (r: IntakeRecord) => Promise<void> = (r) => applyRecord(r, database.deps),
    extra: Partial<Parameters<typeof WebhookIntake.open>[0]> = {},
  ) => {
    const intake = WebhookIntake.open({
      dir,
      apply,
      log: database.capture.log,
      retryDelayMs: 20,
      maxRetryDelayMs: 200,
      ...extra,
    });
    opened.push(intake);
    return intake;
  };

  it("answers before the database is written, then applies every record in arrival order", async () => {
    const intake = open(tempDir());
    const records = [push(1, 1), push(1, 2), push(2, 1)];
    for (const r of records) intake.accept(r);
    expect(intake.backlog()).toBe(3);
    expect(await deliveries()).toEqual([]); // nothing is written while the handler runs

    await intake.settled();

    expect(intake.backlog()).toBe(0);
    expect((await sql("select delivery_id from webhook_deliveries")).map((r) => r.delivery_id).sort()).toEqual(
      records.map((r) => r.deliveryId).sort(),
    );
    const heads = await sql("select pr_number, head_sha from runs order by pr_number");
    expect(heads).toEqual([
      { pr_number: 1, head_sha: records[1]!.run.headSha },
      { pr_number: 2, head_sha: records[2]!.run.headSha },
    ]);
    expect(
      await sql("select singleton_key from pgboss.job where name = $1 order by singleton_key", [RUN_QUEUE]),
    ).toHaveLength(2);
  });

  it("sets aside a record the database refuses for its own sake, and applies the ones behind it", async () => {
    const dir = tempDir();
    const intake = open(dir, undefined, { recordAttempts: 3 });
    const bad = push(3, 1, { title: "NUL \u0000 in a title" }); // PostgreSQL text cannot hold U+0000
    const good = push(4, 1);
    intake.accept(bad);
    intake.accept(good);

    await intake.settled();

    expect(await deliveries()).toEqual([good.deliveryId]);
    const failed = readFileSync(join(dir, "failed.ndjson"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(failed).toEqual([
      expect.objectContaining({
        record: expect.objectContaining({ deliveryId: bad.deliveryId }),
        reason: expect.any(String),
      }),
    ]);
    const retries = database.capture
      .lines()
      .filter((l) => l.msg === "delivery not applied yet; retrying" && l.deliveryId === bad.deliveryId);
    expect(retries.map((l) => l.failure)).toEqual(["record", "record"]);
    expect(database.capture.lines()).toContainEqual(
      expect.objectContaining({
        level: 50,
        msg: "delivery could not be applied; set aside for a person to look at",
        deliveryId: bad.deliveryId,
      }),
    );
  });

  it("keeps a refused record first in line while even setting it aside fails, and sets it aside once it can", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "failed.ndjson")); // a directory where the file should go: every write to it fails
    const intake = open(dir, undefined, { recordAttempts: 2 });
    const bad = push(8, 1, { title: "NUL \u0000 again" });
    const good = push(9, 1);
    intake.accept(bad);
    intake.accept(good);
    await waitFor(async () =>
      database.capture
        .lines()
        .some((l) => l.msg === "delivery could not be applied nor set aside; it stays first in line"),
    );
    expect(await deliveries()).toEqual([]); // nothing overtakes it
    expect(intake.backlog()).toBe(2);

    rmSync(join(dir, "failed.ndjson"), { recursive: true });
    await intake.settled();

    expect(await deliveries()).toEqual([good.deliveryId]);
    expect(readFileSync(join(dir, "failed.ndjson"), "utf8")).toContain(bad.deliveryId);
  });

  it("refuses deliveries with a 503 once too many wait for the database, and takes them again when it catches up", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const intake = open(
      tempDir(),
      async (r) => {
        await gate;
        await applyRecord(r, database.deps);
      },
      { maxBacklog: 2 },
    );
    intake.accept(push(5, 1));
    intake.accept(push(5, 2));

    let refused: unknown;
    try {
      intake.accept(push(5, 3));
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(IntakeRefusedError);
    expect((refused as IntakeRefusedError).status).toBe(503);
    expect((refused as Error).message).toContain("too many deliveries wait for the database (2)");

    release();
    await intake.settled();
    const late = push(5, 4);
    intake.accept(late);
    await intake.settled();
    expect((await deliveries()).length).toBe(3);
    expect((await sql("select head_sha from runs where pr_number = 5"))[0]!.head_sha).toBe(late.run.headSha);
  });

  it("keeps what it could not apply when stopped; the next start applies it, and what was applied stays applied once", async () => {
    const dir = tempDir();
    const first = open(dir);
    const applied = push(6, 1);
    first.accept(applied);
    await first.settled();
    await first.stop();
    // The database stops answering; GitHub redelivers the first push and a new one arrives.
    const blocked = open(dir, () => new Promise(() => {}));
    const stuck = push(6, 2);
    blocked.accept(applied);
    blocked.accept(stuck);
    await blocked.stop(100);
    expect(database.capture.lines()).toContainEqual(
      expect.objectContaining({
        msg: "stopping with deliveries not yet applied; the next start applies them",
        backlog: 2,
      }),
    );
    expect(readdirSync(dir).filter((f) => f.startsWith("journal-"))).toHaveLength(1);

    const next = open(dir);
    await next.settled();

    expect(await deliveries()).toEqual([applied.deliveryId, stuck.deliveryId]);
    expect((await sql("select head_sha from runs where pr_number = 6"))[0]!.head_sha).toBe(stuck.run.headSha);
    expect(
      database.capture.lines().filter((l) => l.msg === "redelivery ignored" && l.deliveryId === applied.deliveryId),
    ).toHaveLength(1);
    await next.stop();
    expect(readdirSync(dir).filter((f) => f.startsWith("journal-"))).toEqual([]); // all applied: nothing left behind
  });

  it.runIf(kind === "postgres")(
    "waits out a database that drops its connections, and applies every record once",
    async () => {
      const url = (database.handle as { url?: string }).url!;
      const admin = postgres(url, { max: 1, onnotice: () => {} });
      try {
        const intake = open(tempDir());
        // Hold the table: the apply waits on the lock, then its connection is cut (57P01), twice.
        const locked = admin.begin(async (tx) => {
          await tx`lock table webhook_deliveries in access exclusive mode`;
          for (let cut = 0; cut < 2; cut++) {
            const record = push(7, cut + 1);
            intake.accept(record);
            await waitFor(
              async () =>
                (
                  await tx`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`
                )[0]!.n > 0,
            );
            await tx`select pg_terminate_backend(pid) from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database() and pid <> pg_backend_pid()`;
            await waitFor(
              async () =>
                database.capture.lines().filter((l) => l.msg === "delivery not applied yet; retrying").length > cut,
            );
          }
        });
        await locked;
        await intake.settled();

        const retries = database.capture.lines().filter((l) => l.msg === "delivery not applied yet; retrying");
        expect(retries.map((l) => l.failure)).toEqual(["database", "database"]);
        expect((await deliveries()).length).toBe(2);
        expect(await sql("select count(*)::int as n from pgboss.job where name = $1", [RUN_QUEUE])).toEqual([{ n: 1 }]);
      } finally {
        await admin.end();
      }
    },
  );
});

describe.each(kinds)("WebhookIntake applying pull request events in groups (%s)", (kind) => {
  const database = useIntakeDatabase(kind);
  const opened: WebhookIntake[] = [];
  afterAll(async () => {
    for (const intake of opened) await intake.stop(100);
  });
  const sql = async (text: string, params: unknown[] = []) => (await database.handle.executeSql(text, params)).rows;

  /** The intake as openWebhookIntake builds it, counting the apply statements the database gets. */
  const open = (dir: string, extra: { recordAttempts?: number; lingerMs?: number } = {}) => {
    const statements: number[] = [];
    const deps: IntakeDeps = {
      ...database.deps,
      executeSql: (text, params) => {
        if (text.includes("jsonb_array_elements")) statements.push((JSON.parse(params![0] as string) as []).length);
        return database.deps.executeSql(text, params);
      },
    };
    const intake = WebhookIntake.open({
      dir,
      apply: (r) => applyRecord(r, deps),
      batches: {
        size: (pending) => applyTogether(pending, 100),
        apply: (rs) => applyRecords(rs, deps),
        lingerMs: extra.lingerMs ?? 50,
      },
      log: database.capture.log,
      retryDelayMs: 20,
      maxRetryDelayMs: 200,
      recordAttempts: extra.recordAttempts,
    });
    opened.push(intake);
    return { intake, statements };
  };

  it("writes a burst of pushes in a few statements, with the effect of applying them one by one", async () => {
    const { intake, statements } = open(tempDir());
    // 40 pushes to 8 PRs, each PR's pushes newest last, plus one push older than its PR's newest.
    const records = Array.from({ length: 40 }, (_, i) => push((i % 8) + 1, 100 + i));
    const stale = push(1, 50);
    for (const r of [...records, stale]) intake.accept(r);

    await intake.settled();

    expect(statements.reduce((a, b) => a + b, 0)).toBe(41); // every record written once
    expect(statements.length).toBeLessThan(41 / 2); // in groups (at most 8 in one: one push per PR)
    expect(Math.max(...statements)).toBeLessThanOrEqual(8);
    expect((await sql("select count(*)::int as n from webhook_deliveries"))[0]!.n).toBe(41);
    const heads = await sql("select pr_number, head_sha from runs order by pr_number");
    expect(heads).toEqual(
      Array.from({ length: 8 }, (_, pr) => ({ pr_number: pr + 1, head_sha: records[32 + pr]!.run.headSha })),
    );
    // one waiting review per PR, queued by its first push
    const jobs = await sql(
      "select singleton_key, data->>'deliveryId' as delivery from pgboss.job where name = $1 and state = 'created' order by data->>'deliveryId'",
      [RUN_QUEUE],
    );
    expect(jobs.map((j) => j.delivery).sort()).toEqual(
      records
        .slice(0, 8)
        .map((r) => r.deliveryId)
        .sort(),
    );
    const queued = database.capture.lines().filter((l) => l.msg === "review queued");
    expect(queued.map((l) => l.deliveryId).sort()).toEqual(
      records
        .slice(0, 8)
        .map((r) => r.deliveryId)
        .sort(),
    );
  });

  it("lets pushes that keep coming gather before writing them, so they share statements", async () => {
    // A linger far longer than the pushes take to arrive, so that how fast this machine runs cannot split
    // the group: the statement count is then exact.
    const { intake, statements } = open(tempDir(), { lingerMs: 1_000 });
    const [first, ...rest] = Array.from({ length: 12 }, (_, i) => push(40 + i, 1));
    intake.accept(first!); // after a quiet spell: written at once, alone
    await intake.settled();
    expect(statements).toEqual([1]);
    for (const r of rest) {
      intake.accept(r); // one every 5 ms, each while deliveries keep coming
      await sleep(5);
    }
    expect(statements).toEqual([1]); // nothing written while they keep coming…
    await intake.settled();
    expect(statements).toEqual([1, 11]); // …then all of them in one statement
    expect((await sql("select count(*)::int as n from runs where pr_number >= 40"))[0]!.n).toBe(12);
  });

  it("applies a delivery after a quiet spell at once, without lingering", async () => {
    const { intake, statements } = open(tempDir(), { lingerMs: 60_000 }); // a linger would outlast the test
    intake.accept(push(20, 1));
    await intake.settled();
    expect((await sql("select count(*)::int as n from webhook_deliveries"))[0]!.n).toBe(1);
    expect(statements).toEqual([1]);
  });

  it("applies a group the database refuses one record at a time: the bad one set aside, the rest applied once", async () => {
    const dir = tempDir();
    const { intake, statements } = open(dir, { recordAttempts: 2 });
    const before = [push(30, 1), push(31, 1), push(32, 1)];
    const bad = push(33, 1, { title: "NUL \u0000 in a title" }); // PostgreSQL text cannot hold U+0000
    const after = [push(34, 1), push(35, 1)];
    for (const r of [...before, bad, ...after]) intake.accept(r);

    await intake.settled();

    expect(statements.some((n) => n > 1)).toBe(true); // a group was tried
    const recorded = (await sql("select delivery_id from webhook_deliveries")).map((r) => r.delivery_id).sort();
    expect(recorded).toEqual([...before, ...after].map((r) => r.deliveryId).sort());
    const failed = readFileSync(join(dir, "failed.ndjson"), "utf8").trim().split("\n");
    expect(failed.map((l) => (JSON.parse(l) as { record: IntakeRecord }).record.deliveryId)).toEqual([bad.deliveryId]);
    expect(database.capture.lines().filter((l) => l.msg === "redelivery ignored")).toEqual([]); // none applied twice
    expect((await sql("select count(*)::int as n from pgboss.job where name = $1", [RUN_QUEUE]))[0]!.n).toBe(5);
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(20);
  }
}
