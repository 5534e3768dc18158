import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DeliveryJournal } from "../../src/intake/delivery-journal.js";
import type { IntakeRecord } from "../../src/intake/intake-record.js";
import { captureLogger } from "../helpers/capture-logger.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";

afterAll(() => removeTempDirs());

const record = (deliveryId: string): IntakeRecord => ({
  kind: "pull_request_closed",
  deliveryId,
  repositoryId: 1,
  prNumber: 2,
});
const lines = (path: string) =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as IntakeRecord);

/** A pid that no process has: one that just exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""]);
  await new Promise((resolve) => child.once("exit", resolve));
  return child.pid!;
}

describe("DeliveryJournal", () => {
  it("writes each record as one JSON line before returning", () => {
    const journal = DeliveryJournal.open(tempDir());
    journal.append(record("d-1"));
    journal.append(record("d-2"));
    expect(lines(journal.path).map((r) => r.deliveryId)).toEqual(["d-1", "d-2"]);
    journal.close();
  });

  it("empties the file only once it has grown past the given size", () => {
    const journal = DeliveryJournal.open(tempDir());
    journal.append(record("d-1"));
    journal.clear(1 << 20);
    expect(lines(journal.path)).toHaveLength(1);
    journal.clear();
    expect(journal.size()).toBe(0);
    journal.append(record("d-2"));
    expect(lines(journal.path).map((r) => r.deliveryId)).toEqual(["d-2"]);
    journal.close();
  });

  it("removes its file on close when empty, and keeps it when records are left", () => {
    const dir = tempDir();
    const empty = DeliveryJournal.open(dir);
    empty.close();
    expect(existsSync(empty.path)).toBe(false);
    const left = DeliveryJournal.open(dir);
    left.append(record("d-1"));
    left.close();
    expect(lines(left.path).map((r) => r.deliveryId)).toEqual(["d-1"]);
    expect(() => left.append(record("d-2"))).toThrow(/closed/);
  });

  it("takes over a dead process's journal: copies its records, removes it, skips a torn last line", async () => {
    const dir = tempDir();
    const orphan = join(dir, `journal-${await deadPid()}-abcd1234.ndjson`);
    writeFileSync(orphan, `${JSON.stringify(record("d-1"))}\n${JSON.stringify(record("d-2"))}\n{"kind":"pull_req`);
    const capture = captureLogger();
    const journal = DeliveryJournal.open(dir);

    const adopted = journal.adoptOrphans(capture.log);

    expect(adopted.map((r) => r.deliveryId)).toEqual(["d-1", "d-2"]);
    expect(existsSync(orphan)).toBe(false);
    expect(lines(journal.path).map((r) => r.deliveryId)).toEqual(["d-1", "d-2"]); // a crash now still keeps them
    expect(capture.lines()).toContainEqual(
      expect.objectContaining({ msg: "unreadable journal line skipped", line: 3, last: true }),
    );
    journal.close();
  });

  it("leaves a live process's journal alone, and adopts one left by an earlier process with this pid", () => {
    const dir = tempDir();
    const live = join(dir, `journal-${process.ppid}-00000000.ndjson`);
    const earlier = join(dir, `journal-${process.pid}-11111111.ndjson`);
    writeFileSync(live, `${JSON.stringify(record("live"))}\n`);
    writeFileSync(earlier, `${JSON.stringify(record("earlier"))}\n`);
    const journal = DeliveryJournal.open(dir);

    const adopted = journal.adoptOrphans(captureLogger().log);

    expect(adopted.map((r) => r.deliveryId)).toEqual(["earlier"]);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(earlier)).toBe(false);
    journal.close();
  });

  it("takes over the journal of a zombie (dead, not yet reaped) and of a pid now used by a later process", async () => {
    const dir = tempDir();
    // A child that exits while this process does not reap it: a zombie, which kill(pid, 0) still finds.
    const zombie = spawn("sh", ["-c", "sleep 0.1 & exec sleep 30"], { stdio: "ignore" });
    const pgrep = spawn("sh", ["-c", `sleep 0.5; ps -o pid=,stat= --ppid ${zombie.pid}`]);
    let ps = "";
    pgrep.stdout.on("data", (d: Buffer) => (ps += d.toString()));
    await new Promise((resolve) => pgrep.once("exit", resolve));
    const zombiePid = Number(/^\s*(\d+)\s+Z/m.exec(ps)?.[1]);
    expect(zombiePid).toBeGreaterThan(0);
    expect(() => process.kill(zombiePid, 0)).not.toThrow(); // what the old check trusted
    const ofZombie = join(dir, `journal-${zombiePid}-abcd0001.ndjson`);
    const stat = readFileSync(`/proc/${process.ppid}/stat`, "utf8");
    const parentStart = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]!;
    const reusedPid = join(dir, `journal-${process.ppid}-${Number(parentStart) - 1}-abcd0002.ndjson`); // same pid, started earlier
    const live = join(dir, `journal-${process.ppid}-${parentStart}-abcd0003.ndjson`);
    for (const [path, id] of [
      [ofZombie, "zombie"],
      [reusedPid, "reused"],
      [live, "live"],
    ] as const)
      writeFileSync(path, `${JSON.stringify(record(id))}\n`);
    const journal = DeliveryJournal.open(dir);

    const adopted = journal.adoptOrphans(captureLogger().log);
    zombie.kill("SIGKILL");

    expect(adopted.map((r) => r.deliveryId).sort()).toEqual(["reused", "zombie"]);
    expect(existsSync(live)).toBe(true);
    expect([existsSync(ofZombie), existsSync(reusedPid)]).toEqual([false, false]);
    expect(journal.path).toMatch(new RegExp(`journal-${process.pid}-\\d+-[0-9a-f]{8}\\.ndjson$`)); // its own writer's start time in the name
    journal.close();
  });

  it("sets a record aside in failed.ndjson with the reason", () => {
    const dir = tempDir();
    const journal = DeliveryJournal.open(dir);
    const path = journal.setAside(record("d-bad"), "value too long");
    expect(readdirSync(dir)).toContain("failed.ndjson");
    expect(JSON.parse(readFileSync(path, "utf8").trim())).toMatchObject({
      reason: "value too long",
      record: { deliveryId: "d-bad" },
    });
    journal.close();
  });
});
