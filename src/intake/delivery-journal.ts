import { randomBytes } from "node:crypto";
import {
  appendFileSync,
  closeSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import type { Logger } from "pino";
import { currentProcess, isProcessAlive } from "../system/process-identity.js";
import type { IntakeRecord } from "./intake-record.js";

/** journal-<pid>-<kernel start time>-<random>.ndjson (files of earlier versions have no start time). */
const FILE = /^journal-(\d+)-(?:(\d+)-)?[0-9a-f]+\.ndjson$/;

/** Journals open in this process (a file with this pid that is not among them was left by an earlier process). */
const openHere = new Set<string>();

/**
 * This process's append-only file of accepted deliveries, one JSON line each. A line is written with
 * one synchronous `write` before GitHub gets its 2xx, so it is in the kernel's hands when the process
 * dies (a crash, an OOM kill, a deploy); the next start applies what the dead process had not. The file
 * is emptied whenever everything in it has been applied, so it stays small.
 *
 * One file per process (pid, the kernel's start time of that pid and a random suffix in the name):
 * replicas that share DATA_DIR on one host leave each other's live files alone, and a file whose writer
 * is gone — exited, a zombie not yet reaped, or its pid since reused by another process — is taken over.
 */
export class DeliveryJournal {
  private written = 0;

  private constructor(
    readonly dir: string,
    readonly path: string,
    private fd: number | null,
  ) {}

  static open(dir: string): DeliveryJournal {
    mkdirSync(dir, { recursive: true });
    const self = currentProcess();
    const path = join(
      dir,
      `journal-${self.pid}-${self.started ? `${self.started}-` : ""}${randomBytes(4).toString("hex")}.ndjson`,
    );
    const journal = new DeliveryJournal(dir, path, openSync(path, "a"));
    openHere.add(path);
    return journal;
  }

  /** Writes the record before returning; throws (disk full, closed) when it could not. */
  append(record: IntakeRecord): void {
    if (this.fd === null) throw new Error("delivery journal is closed");
    const bytes = Buffer.from(`${JSON.stringify(record)}\n`);
    let written = 0;
    while (written < bytes.length) written += writeSync(this.fd, bytes, written, bytes.length - written);
    this.written += bytes.length;
  }

  /**
   * Everything written has been applied: start the file again once it holds `atLeastBytes` (applied
   * lines left in the file are harmless — applying a delivery twice changes nothing — and truncating
   * after every delivery would cost a system call each).
   */
  clear(atLeastBytes = 0): void {
    if (this.fd === null || this.written < atLeastBytes) return;
    ftruncateSync(this.fd, 0);
    this.written = 0;
  }

  /** Bytes not yet cleared (tests and /health). */
  size(): number {
    return this.fd === null ? 0 : fstatSync(this.fd).size;
  }

  /**
   * Takes over the journals of processes that died: their records are copied into this journal (so a
   * crash now still keeps them) and their files removed. A torn last line (the write the crash cut) is
   * skipped: its delivery never got a 2xx.
   */
  adoptOrphans(log: Logger): IntakeRecord[] {
    const adopted: IntakeRecord[] = [];
    for (const name of readdirSync(this.dir)) {
      const match = FILE.exec(name);
      const path = join(this.dir, name);
      if (!match || openHere.has(path)) continue;
      const pid = Number(match[1]);
      if (pid !== process.pid && isProcessAlive({ pid, started: match[2] ?? "" })) {
        log.debug({ journal: name }, "journal of a running process left alone");
        continue;
      }
      const lines = readFileSync(path, "utf8")
        .split("\n")
        .filter((line) => line.trim() !== "");
      let taken = 0;
      for (const [i, line] of lines.entries()) {
        let record: IntakeRecord;
        try {
          record = JSON.parse(line) as IntakeRecord;
        } catch {
          log.warn({ journal: name, line: i + 1, last: i === lines.length - 1 }, "unreadable journal line skipped");
          continue;
        }
        this.append(record);
        adopted.push(record);
        taken++;
      }
      unlinkSync(path);
      if (lines.length > 0) log.info({ journal: name, records: taken }, "deliveries from a stopped process taken over");
    }
    return adopted;
  }

  /** A record that cannot be applied is kept aside (`failed.ndjson`) for a person to look at, never dropped. */
  setAside(record: IntakeRecord, reason: string): string {
    const path = join(this.dir, "failed.ndjson");
    appendFileSync(path, `${JSON.stringify({ at: new Date().toISOString(), reason, record })}\n`);
    return path;
  }

  /** Closes the file; removes it when nothing is left in it (else the next start applies the rest). */
  close(): void {
    if (this.fd === null) return;
    const empty = fstatSync(this.fd).size === 0;
    closeSync(this.fd);
    this.fd = null;
    openHere.delete(this.path);
    if (empty) rmSync(this.path, { force: true });
  }
}
