import { generateKeyPairSync } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import nock from "nock";
import postgres from "postgres";
import { Probot, ProbotOctokit } from "probot";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { recordDelivery } from "../../src/db/webhook-deliveries.js";
import { nextCursor } from "../../src/github/app-hook-deliveries.js";
import {
  startDeliverySweep,
  SWEEP_LOCK_KEY,
  type DeliverySweep,
  type DeliverySweepOptions,
  type SweepOutcome,
} from "../../src/intake/start-delivery-sweep.js";
import { captureLogger } from "../helpers/capture-logger.js";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../helpers/test-database.js";
import type { HookDeliveryAttempt } from "../helpers/github-stand-in.js";

/**
 * The sweep against GitHub's HTTP API (nock): what it reads, with which credentials, and which
 * delivery attempts it asks GitHub to send again.
 */

const kinds = await databaseKinds();
const APP_ID = 1;
const { privateKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs1", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});
const NOW = Date.parse("2026-03-02T12:00:00Z");
const MINUTE = 60_000;

type LogItem = HookDeliveryAttempt;

/** One attempt as GET /app/hook/deliveries lists it. */
function attempt(
  id: number,
  guid: string,
  minutesAgo: number,
  statusCode: number,
  redelivery = false,
  at = NOW,
): LogItem {
  return {
    id,
    guid,
    delivered_at: new Date(at - minutesAgo * MINUTE).toISOString(),
    redelivery,
    duration: 0.1,
    status: statusCode === 0 ? "failed to connect to host" : statusCode < 300 ? "OK" : "Bad Gateway",
    status_code: statusCode,
    event: "pull_request",
    action: "synchronize",
    installation_id: 99,
    repository_id: 4242,
  };
}

const JWT = /^bearer ([\w-]+)\.([\w-]+)\.([\w-]+)$/i;

/** What the sweep sent GitHub. */
interface Sent {
  lists: { cursor: string | null; perPage: string | null; authorization: string }[];
  redelivered: number[];
}

/**
 * GET /app/hook/deliveries: the log (newest first) in pages of `pageSize`, cursor = the last id of the
 * page before, next page in the Link header; every request must carry the App's JWT.
 */
function mockDeliveryLog(sent: Sent, log: () => LogItem[], pageSize = 100): void {
  nock("https://api.github.com")
    .get("/app/hook/deliveries")
    .query(true)
    .reply(function (uri) {
      const url = new URL(uri, "https://api.github.com");
      const authorization = String(this.req.headers.authorization ?? "");
      sent.lists.push({
        cursor: url.searchParams.get("cursor"),
        perPage: url.searchParams.get("per_page"),
        authorization,
      });
      if (!JWT.test(authorization)) return [401, { message: "A JSON web token could not be decoded" }];
      const all = [...log()].sort((a, b) => b.id - a.id);
      const cursor = url.searchParams.get("cursor");
      const from = cursor ? all.findIndex((d) => d.id < Number(cursor)) : 0;
      const page = from < 0 ? [] : all.slice(from, from + pageSize);
      const more = from >= 0 && from + pageSize < all.length;
      const link = more
        ? {
            link: `<https://api.github.com/app/hook/deliveries?per_page=${pageSize}&cursor=${page.at(-1)!.id}>; rel="next"`,
          }
        : {};
      return [200, page, link];
    })
    .persist();
}

/** POST /app/hook/deliveries/:id/attempts → 202 (or `status`), recording the id. */
function mockRedeliver(sent: Sent, status = 202): void {
  nock("https://api.github.com")
    .post(/^\/app\/hook\/deliveries\/\d+\/attempts$/)
    .reply(function (uri) {
      if (!JWT.test(String(this.req.headers.authorization ?? "")))
        return [401, { message: "A JSON web token could not be decoded" }];
      sent.redelivered.push(Number(/deliveries\/(\d+)\//.exec(uri)![1]));
      return status === 202 ? [202, {}] : [status, { message: "Server Error" }];
    })
    .persist();
}

function probot(): Probot {
  return new Probot({
    appId: APP_ID,
    privateKey,
    secret: "s",
    log: captureLogger().log,
    Octokit: ProbotOctokit.defaults((options: Record<string, unknown>) => ({
      ...options,
      throttle: { enabled: false },
      retry: { enabled: false },
    })),
  });
}

beforeAll(() => nock.disableNetConnect());
afterAll(() => nock.enableNetConnect());

describe("nextCursor", () => {
  it.each([
    [undefined, undefined],
    ['<https://api.github.com/app/hook/deliveries?per_page=100&cursor=v1_12345>; rel="next"', "v1_12345"],
    [
      '<https://api.github.com/app/hook/deliveries?per_page=100>; rel="first", <https://api.github.com/app/hook/deliveries?cursor=abc%3D&per_page=100>; rel="next"',
      "abc=",
    ],
    ['<https://api.github.com/app/hook/deliveries?per_page=100>; rel="first"', undefined],
  ])("%s → %s", (link, cursor) => {
    expect(nextCursor(link)).toBe(cursor);
  });
});

describe.each(kinds)("the delivery sweep (%s)", (kind) => {
  let database: TestDatabase;
  let sweeps: DeliverySweep[] = [];
  let sent: Sent;
  let logs: ReturnType<typeof captureLogger>;
  let now: number;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.dispose();
  });
  beforeEach(() => {
    sent = { lists: [], redelivered: [] };
    logs = captureLogger();
    now = NOW;
  });
  afterEach(async () => {
    await Promise.all(sweeps.map((s) => s.stop()));
    sweeps = [];
    nock.cleanAll();
  });

  /** A sweep whose timer never fires by itself (tests call sweepNow). */
  function sweep(options: Partial<DeliverySweepOptions> = {}): DeliverySweep {
    const started = startDeliverySweep({
      app: probot(),
      database: database.handle,
      intervalMs: 5 * MINUTE,
      firstDelayMs: 3_600_000,
      log: logs.log,
      now: () => now,
      ...options,
    });
    sweeps.push(started);
    return started;
  }

  function swept(outcome: SweepOutcome) {
    if (outcome.kind !== "swept")
      throw new Error(`expected a sweep, got ${outcome.kind}: ${String((outcome as { error?: unknown }).error)}`);
    return outcome.counts;
  }

  const guid = (n: number) => `${kind}-guid-${n}-${Math.random().toString(16).slice(2, 8)}`;

  it("redelivers a failed delivery once, as the App (a JWT), reading the log page by page", async () => {
    const failed = guid(1);
    // 150 attempts: the failed one is on the second page
    const log = [
      attempt(1, failed, 50, 502),
      ...Array.from({ length: 149 }, (_, i) => attempt(100 + i, guid(100 + i), 40 - i / 10, 200)),
    ];
    mockDeliveryLog(sent, () => log);
    mockRedeliver(sent);

    const counts = swept(await sweep().sweepNow());

    expect(sent.redelivered).toEqual([1]);
    expect(counts).toMatchObject({ failed: 1, redelivered: 1, pages: 2, deferred: 0, errors: 0 });
    expect(sent.lists.map((l) => [l.cursor, l.perPage])).toEqual([
      [null, "100"],
      ["149", "100"],
    ]);
    const [, , payload] = JWT.exec(sent.lists[0]!.authorization)!;
    expect(JSON.parse(Buffer.from(payload!, "base64url").toString())).toMatchObject({ iss: APP_ID });
    const line = logs.lines().find((l) => l.msg === "failed webhook deliveries swept");
    expect(line).toMatchObject({ level: 30, failed: 1, redelivered: 1, skipped: 0 });
  });

  it("a delivery with a later successful attempt is not redelivered; one whose attempts all failed is", async () => {
    const healed = guid(1);
    const lost = guid(2);
    const log = [
      attempt(1, healed, 30, 0),
      attempt(2, lost, 29, 503),
      attempt(3, healed, 20, 200, true),
      attempt(4, lost, 19, 502, false),
    ];
    mockDeliveryLog(sent, () => log);
    mockRedeliver(sent);

    const counts = swept(await sweep().sweepNow());

    expect(sent.redelivered).toEqual([2]); // the first attempt of `lost`
    expect(counts).toMatchObject({ failed: 1, redelivered: 1 });
  });

  it("a delivery the app already applied (in webhook_deliveries) is not redelivered", async () => {
    const applied = guid(1);
    const missed = guid(2);
    await recordDelivery(database.handle.db, { deliveryId: applied, event: "pull_request" });
    mockDeliveryLog(sent, () => [attempt(1, applied, 10, 0), attempt(2, missed, 9, 0)]);
    mockRedeliver(sent);

    const counts = swept(await sweep().sweepNow());

    expect(sent.redelivered).toEqual([2]);
    expect(counts).toMatchObject({
      failed: 2,
      redelivered: 1,
      skipped: { applied: 1, asked: 0, redeliveredRecently: 0 },
    });
  });

  it("a redelivery that failed too is asked for again at every sweep; a new failure is redelivered", async () => {
    const first = guid(1);
    const later = guid(2);
    const log = [attempt(1, first, 10, 0)];
    mockDeliveryLog(sent, () => log);
    mockRedeliver(sent);
    const sweeper = sweep();
    swept(await sweeper.sweepNow());
    expect(sent.redelivered).toEqual([1]);

    // the redelivery GitHub made right after that sweep failed as well (the app was down again)
    now += 5 * MINUTE;
    log.push(attempt(2, first, 4, 503, true, NOW), attempt(3, later, 1, 0, false, now));
    const counts = swept(await sweeper.sweepNow());
    expect(sent.redelivered).toEqual([1, 3, 1]);
    expect(counts).toMatchObject({ failed: 2, redelivered: 2, gaveUp: 0 });

    // and once one attempt succeeds it is left alone
    now += 5 * MINUTE;
    log.push(attempt(4, first, 4, 200, true, now), attempt(5, later, 4, 200, true, now));
    expect(swept(await sweeper.sweepNow())).toMatchObject({ failed: 0, redelivered: 0 });
    expect(sent.redelivered).toEqual([1, 3, 1]);
  });

  it("gives up after maxAttempts attempts in GitHub's log, with one warn line, also in a new process", async () => {
    const lost = guid(1);
    const log = [attempt(1, lost, 30, 0)];
    mockDeliveryLog(sent, () => log);
    mockRedeliver(sent);
    const sweeper = sweep({ maxAttempts: 3 });
    for (let i = 0; i < 4; i++) {
      swept(await sweeper.sweepNow());
      now += 5 * MINUTE;
      // every redelivery GitHub makes fails
      if (log.length < 3) log.push(attempt(10 + i, lost, 0, 502, true, now - MINUTE));
    }
    expect(sent.redelivered).toEqual([1, 1]);
    const gaveUp = logs.lines().filter((l) => l.msg === "webhook delivery failed every attempt; not redelivered again");
    expect(gaveUp).toEqual([
      expect.objectContaining({ level: 40, deliveryId: lost, event: "pull_request", attempts: 3, lastStatus: 502 }),
    ]);

    // a restart does not start the count again: it is read from GitHub's log
    const restarted = sweep({ maxAttempts: 3 });
    expect(swept(await restarted.sweepNow())).toMatchObject({ failed: 1, redelivered: 0, gaveUp: 1 });
    expect(sent.redelivered).toEqual([1, 1]);
  });

  it("a delivery another replica redelivered since the last sweep is left alone", async () => {
    const elsewhere = guid(1);
    mockDeliveryLog(sent, () => [attempt(1, elsewhere, 30, 0), attempt(2, elsewhere, 1, 0, true)]);
    mockRedeliver(sent);

    const counts = swept(await sweep().sweepNow());

    expect(sent.redelivered).toEqual([]);
    expect(counts).toMatchObject({ failed: 1, redelivered: 0, skipped: { redeliveredRecently: 1 } });
  });

  it("deliveries older than the window are not looked at", async () => {
    mockDeliveryLog(sent, () => [attempt(1, guid(1), 25 * 60, 0), attempt(2, guid(2), 10, 200)]);
    mockRedeliver(sent);

    const counts = swept(await sweep().sweepNow());

    expect(sent.redelivered).toEqual([]);
    expect(counts.failed).toBe(0);
  });

  it("asks for at most maxRedeliveries per sweep, fewest attempts then oldest first; the rest at the next sweep", async () => {
    const log = [attempt(1, guid(1), 30, 0), attempt(2, guid(2), 20, 0), attempt(3, guid(3), 10, 0)];
    mockDeliveryLog(sent, () => log);
    mockRedeliver(sent);
    const sweeper = sweep({ maxRedeliveries: 2 });

    expect(swept(await sweeper.sweepNow())).toMatchObject({ failed: 3, redelivered: 2, deferred: 1 });
    expect(sent.redelivered).toEqual([1, 2]);

    // the two redeliveries failed again: the one not asked for yet goes first, then they
    now += 5 * MINUTE;
    log.unshift(attempt(5, log[1]!.guid, 2, 502, true, now), attempt(4, log[0]!.guid, 3, 502, true, now));
    expect(swept(await sweeper.sweepNow())).toMatchObject({ failed: 3, redelivered: 2, deferred: 1 });
    expect(sent.redelivered).toEqual([1, 2, 3, 1]);
  });

  it("a redelivery GitHub fails (5xx) is logged at warn and asked again at the next sweep", async () => {
    mockDeliveryLog(sent, () => [attempt(1, guid(1), 10, 0)]);
    mockRedeliver(sent, 500);
    const sweeper = sweep();

    expect(swept(await sweeper.sweepNow())).toMatchObject({ redelivered: 0, errors: 1 });
    expect(logs.lines().filter((l) => l.msg === "redelivery not accepted by GitHub")).toEqual([
      expect.objectContaining({ level: 40, failure: "server" }),
    ]);
    now += 5 * MINUTE;
    await sweeper.sweepNow();
    expect(sent.redelivered).toEqual([1, 1]);
  });

  it("401: logged once at error saying what to do, not retried hot, and said when it works again", async () => {
    let refuse = true;
    nock("https://api.github.com")
      .get("/app/hook/deliveries")
      .query(true)
      .reply(function () {
        sent.lists.push({ cursor: null, perPage: null, authorization: String(this.req.headers.authorization) });
        return refuse ? [401, { message: "'Expiration time' claim ('exp') is too far in the future" }] : [200, []];
      })
      .persist();
    // the timer itself: first sweep at once, then every 20 ms unless GitHub refused the App
    const sweeper = sweep({ firstDelayMs: 0, intervalMs: 20 });
    await sleep(400);

    expect(sent.lists).toHaveLength(1);
    const errors = logs.lines().filter((l) => (l.level as number) >= 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ status: 401, failure: "auth", retryInMs: 3_600_000 });
    expect(errors[0]!.msg).toMatch(/APP_ID and PRIVATE_KEY .* clock .*REDELIVER_INTERVAL=off/);

    // the hour passes: still refused, not said again
    await sweeper.sweepNow();
    expect(logs.lines().filter((l) => (l.level as number) >= 50)).toHaveLength(1);

    refuse = false;
    swept(await sweeper.sweepNow());
    expect(logs.lines().map((l) => l.msg)).toContain(
      "GitHub's webhook delivery log is readable again; failed deliveries are redelivered",
    );
  });

  it("404 on the log: an error naming the App's webhook settings", async () => {
    nock("https://api.github.com").get("/app/hook/deliveries").query(true).reply(404, { message: "Not Found" });

    const outcome = await sweep().sweepNow();

    expect(outcome.kind).toBe("failed");
    const errors = logs.lines().filter((l) => (l.level as number) >= 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.msg).toMatch(/webhook is active/);
  });

  it.runIf(kind === "postgres")(
    "one replica sweeps at a time: while another holds the lock, nothing is read",
    async () => {
      mockDeliveryLog(sent, () => [attempt(1, guid(1), 10, 0)]);
      mockRedeliver(sent);
      const other = postgres(database.handle.url!, { max: 1, onnotice: () => {} });
      try {
        await other`select pg_advisory_lock(${SWEEP_LOCK_KEY})`;
        expect((await sweep().sweepNow()).kind).toBe("locked");
        expect(sent.lists).toHaveLength(0);
      } finally {
        await other.end();
      }
      expect(swept(await sweep().sweepNow())).toMatchObject({ redelivered: 1 });
    },
  );
});
