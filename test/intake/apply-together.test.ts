import { describe, expect, it } from "vitest";
import { applyRecord, applyRecords, applyTogether } from "../../src/intake/apply-record.js";
import type { IntakeRecord, PullRequestRecord } from "../../src/intake/intake-record.js";
import { RUN_QUEUE } from "../../src/queue/queue-names.js";
import { pullRequestRecord } from "../helpers/intake-records.js";
import { databaseKinds } from "../helpers/test-database.js";
import { useIntakeDatabase } from "../helpers/use-queue-database.js";
import { seededRandom } from "../helpers/seeded-random.js";

const kinds = await databaseKinds();

const push = (id: string, pr: number, second = 0, action = "synchronize"): PullRequestRecord => ({
  ...pullRequestRecord(id, {
    prNumber: pr,
    headSha: id.padStart(40, "0").slice(-40),
    prUpdatedAt: new Date(Date.UTC(2026, 10, 29, 0, 0, second)).toISOString(),
  }),
  action,
});
const closed = (id: string, pr: number): IntakeRecord => ({
  kind: "pull_request_closed",
  deliveryId: id,
  repositoryId: 4242,
  prNumber: pr,
});

describe("applyTogether", () => {
  it("groups a run of pull request events with distinct deliveries and pull requests, up to the limit", () => {
    expect(applyTogether([push("a", 1), push("b", 2), push("c", 3)], 100)).toBe(3);
    expect(applyTogether([push("a", 1), push("b", 2), push("c", 3)], 2)).toBe(2);
    expect(applyTogether([push("a", 1), push("b", 2), push("c", 1)], 100)).toBe(2); // PR 1 again
    expect(applyTogether([push("a", 1), push("b", 2), push("a", 3)], 100)).toBe(2); // delivery a again
    expect(applyTogether([push("a", 1), closed("b", 2), push("c", 3)], 100)).toBe(1); // not a push
    expect(applyTogether([closed("b", 2), push("c", 3)], 100)).toBe(1); // alone, whatever it is
    const otherRepo = { ...push("d", 1), run: { ...push("d", 1).run, repositoryId: 99 } };
    expect(applyTogether([push("a", 1), otherRepo], 100)).toBe(2); // PR 1 of another repository
  });
});

/** Deliveries as a busy repository sends them: pushes out of order, reopens, closes, redeliveries. */
function deliveries(seed: number, count: number): IntakeRecord[] {
  const next = seededRandom(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const records: IntakeRecord[] = [];
  for (let i = 0; i < count; i++) {
    const pr = 1 + Math.floor(next() * 5);
    const roll = next();
    if (roll < 0.1 && records.length > 0)
      records.push(pick(records)); // GitHub redelivers one
    else if (roll < 0.2) records.push(closed(`c${seed}-${i}`, pr));
    else {
      const action = pick(["synchronize", "synchronize", "synchronize", "opened", "reopened", "ready_for_review"]);
      records.push(push(`p${seed}-${i}`, pr, Math.floor(next() * 40), action)); // updated_at out of order
    }
  }
  return records;
}

describe.each(kinds)("pull request events applied together (%s)", (kind) => {
  const database = useIntakeDatabase(kind);
  const sql = async (text: string, params: unknown[] = []) => (await database.handle.executeSql(text, params)).rows;

  /** What the deliveries left: runs, recorded ids, jobs (by PR), and what the log said of each delivery. */
  async function state(fromLine: number) {
    const logged = (msg: string) =>
      database.capture
        .lines()
        .slice(fromLine)
        .filter((l) => l.msg === msg)
        .map((l) => l.deliveryId as string)
        .sort();
    return {
      runs: await sql("select pr_number, head_sha, state, pr_updated_at::text as updated from runs order by pr_number"),
      deliveries: (await sql("select delivery_id from webhook_deliveries order by delivery_id")).map(
        (r) => r.delivery_id,
      ),
      jobs: await sql(
        `select r.pr_number, j.data->>'deliveryId' as delivery, j.data->>'trigger' as trigger,
           j.data->>'senderLogin' as sender, j.state
         from pgboss.job j join runs r on r.id = j.singleton_key::bigint where j.name = $1
         order by r.pr_number, j.data->>'deliveryId'`,
        [RUN_QUEUE],
      ),
      queued: logged("review queued"),
      redeliveries: logged("redelivery ignored"),
    };
  }

  async function reset() {
    await sql("truncate webhook_deliveries, runs cascade");
    await sql("truncate pgboss.job");
  }

  it.each([1, 2, 3, 4])(
    "leaves exactly what applying them one by one leaves (seed %i)",
    async (seed) => {
      const records = deliveries(seed, 80);

      for (const record of records) await applyRecord(record, database.deps);
      const oneByOne = await state(0);
      await reset();
      const mark = database.capture.lines().length;

      const groups: number[] = [];
      for (let i = 0; i < records.length;) {
        const n = applyTogether(records.slice(i), 100);
        await applyRecords(records.slice(i, i + n), database.deps);
        groups.push(n);
        i += n;
      }
      const together = await state(mark);

      expect(Math.max(...groups)).toBeGreaterThan(2); // the sequence did make groups
      expect(oneByOne.runs.length).toBeGreaterThan(0);
      expect(oneByOne.redeliveries.length).toBeGreaterThan(0);
      expect(together).toEqual(oneByOne);
    },
    30_000,
  );

  it("reopens a closed run from inside a group, and a group's stale push does not move its run", async () => {
    await applyRecord(push("r1", 1, 10, "opened"), database.deps);
    await applyRecord(closed("r2", 1), database.deps);
    await applyRecords([push("r3", 2, 5, "opened"), push("r4", 1, 20, "reopened"), push("r5", 3, 1)], database.deps);
    await applyRecords([push("r6", 2, 1), push("r7", 1, 30)], database.deps); // r6 is older than PR 2's r3

    expect(await sql("select pr_number, head_sha, state from runs order by pr_number")).toEqual([
      { pr_number: 1, head_sha: push("r7", 1).run.headSha, state: "open" },
      { pr_number: 2, head_sha: push("r3", 2).run.headSha, state: "open" },
      { pr_number: 3, head_sha: push("r5", 3).run.headSha, state: "open" },
    ]);
  });

  it("refuses events that name one delivery or one pull request twice", async () => {
    await expect(applyRecords([push("x1", 1), push("x2", 1)], database.deps)).rejects.toThrow(/distinct/);
    await expect(applyRecords([push("x1", 1), push("x1", 2)], database.deps)).rejects.toThrow(/distinct/);
    expect(await sql("select delivery_id from webhook_deliveries")).toEqual([]);
  });
});
