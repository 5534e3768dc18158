import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listRefusals } from "../../src/db/refusals.js";
import { Metrics } from "../../src/metrics/metrics.js";
import { REASON_MAX, Refusals } from "../../src/refusals/refusals.js";
import { sample } from "../metrics/sample.js";
import { captureLogger } from "../helpers/capture-logger.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";

const SECRET = "webhook-secret-value-0123";
const TOKEN = `ghs_${"A1b2C3d4E5".repeat(4)}`;

describe("Refusals: refusals_total and the refusals row in one call (pglite)", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
  });
  afterAll(async () => {
    await database.dispose();
  });

  const start = (options: { windowMs?: number } = {}) => {
    const metrics = new Metrics({ processMetrics: false });
    const logs = captureLogger();
    const refusals = new Refusals({ db: database.handle.db, log: logs.log, metrics, secrets: [SECRET], ...options });
    return { refusals, metrics, logs };
  };
  const rows = async (kind: string) =>
    (await listRefusals(database.handle.db)).filter((r) => r.kind === kind).reverse(); // oldest first

  it("counts a job's refusal and has written its row when it resolves", async () => {
    const { refusals, metrics } = start();
    await refusals.refuse({
      kind: "gitlink",
      repositoryFullName: "octo/widgets",
      prNumber: 7,
      actor: "fixer",
      reason: "fix 1234567 not pushed: it adds or changes a gitlink (submodule entry) at modules/evil",
    });
    expect(sample(await metrics.text(), 'refusals_total{kind="gitlink"}')).toBe(1);
    expect(await rows("gitlink")).toEqual([
      expect.objectContaining({
        repositoryFullName: "octo/widgets",
        prNumber: 7,
        actor: "fixer",
        reason: "fix 1234567 not pushed: it adds or changes a gitlink (submodule entry) at modules/evil",
        count: 1,
      }),
    ]);
  });

  it("redacts the app's secrets and token shapes from the reason before cutting it, so no part of a token is kept", async () => {
    const { refusals } = start();
    await refusals.refuse({ kind: "push_rejected", reason: `git said: remote: ${SECRET} rejected` });
    // a token across the cut: cut first, its first characters would be kept, too few to be recognised after
    await refusals.refuse({ kind: "push_rejected", reason: `${"x".repeat(REASON_MAX - 11)} ${TOKEN} trailing` });
    expect((await rows("push_rejected")).map((r) => r.reason)).toEqual([
      "git said: remote: [redacted] rejected",
      `${"x".repeat(REASON_MAX - 11)} [redacted]`,
    ]);
  });

  it("a webhook refusal is only counted while the request is answered; its row is written after", async () => {
    const { refusals, metrics } = start();
    await refusals.refuse({ kind: "webhook_body_too_large", reason: "webhook body refused (413, delivery d-1)" });
    expect(sample(await metrics.text(), 'refusals_total{kind="webhook_body_too_large"}')).toBe(1);
    expect(await rows("webhook_body_too_large")).toEqual([]); // resolved without touching the database
    await refusals.settled();
    expect((await rows("webhook_body_too_large")).map((r) => [r.reason, r.count])).toEqual([
      ["webhook body refused (413, delivery d-1)", 1],
    ]);
    await refusals.stop();
  });

  it("a flood of webhook refusals is every one counted, and two rows: the first, and the rest with their count", async () => {
    const { refusals, metrics } = start();
    for (let i = 1; i <= 1000; i++)
      void refusals.refuse({ kind: "webhook_invalid", reason: `webhook request refused (400, delivery d-${i})` });
    await refusals.settled();
    expect((await rows("webhook_invalid")).map((r) => [r.reason, r.count])).toEqual([
      ["webhook request refused (400, delivery d-1)", 1],
    ]);
    await refusals.stop(); // what the window holds is written before the database closes
    expect((await rows("webhook_invalid")).map((r) => [r.reason, r.count])).toEqual([
      ["webhook request refused (400, delivery d-1)", 1],
      ["webhook request refused (400, delivery d-1000)", 999],
    ]);
    expect(sample(await metrics.text(), 'refusals_total{kind="webhook_invalid"}')).toBe(1000);

    await refusals.refuse({ kind: "webhook_invalid", reason: "after stop" }); // counted, no row
    await refusals.settled();
    expect(await rows("webhook_invalid")).toHaveLength(2);
    expect(sample(await metrics.text(), 'refusals_total{kind="webhook_invalid"}')).toBe(1001);
  });

  it("a row the database will not take is logged at warn, and never fails the caller", async () => {
    const closed = await createTestDatabase("pglite");
    await closed.dispose();
    const metrics = new Metrics({ processMetrics: false });
    const logs = captureLogger();
    const refusals = new Refusals({ db: closed.handle.db, log: logs.log, metrics });

    await expect(refusals.refuse({ kind: "budget", reason: "no review of 1234567" })).resolves.toBeUndefined();
    await refusals.refuse({ kind: "intake_full", reason: "delivery d-1 answered 503" });
    await refusals.stop();

    expect(sample(await metrics.text(), 'refusals_total{kind="budget"}')).toBe(1);
    expect(sample(await metrics.text(), 'refusals_total{kind="intake_full"}')).toBe(1);
    expect(
      logs
        .lines()
        .filter((l) => l.msg === "refusal not recorded for the operator page")
        .map((l) => [l.level, l.kind]),
    ).toEqual([
      [40, "budget"],
      [40, "intake_full"],
    ]);
  });
});
