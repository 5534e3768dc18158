import type { RefusalRow } from "../db/refusals.js";

/** One kind's window: the refusals after the one that opened it, not yet written. */
interface Window {
  timer: NodeJS.Timeout;
  held: number;
  /** The held refusals as one row: the latest reason; where, PR and who when they all agree, else null. */
  row?: RefusalRow;
}

/**
 * At most one row per kind a window, with a count. The first refusal of a kind is written at once (the
 * operator sees it without waiting) and opens a window; those that follow while it is open are only
 * counted, and when it ends they are written as one row (`count` of them, the latest reason) and the next
 * window opens — so a steady flood is one row a window, and what it holds is a few fields per kind
 * whatever the rate. A window with nothing held ends quietly.
 */
export class RefusalWindows {
  readonly #open = new Map<string, Window>();

  constructor(
    private readonly write: (row: RefusalRow) => void,
    private readonly windowMs: number,
  ) {}

  add(row: RefusalRow): void {
    const open = this.#open.get(row.kind);
    if (!open) {
      this.write(row);
      this.#start(row.kind);
      return;
    }
    open.held++;
    open.row = open.row ? together(open.row, row) : row;
  }

  /** Writes what every window holds and closes them all (at stop). */
  flush(): void {
    for (const [kind, open] of this.#open) {
      clearTimeout(open.timer);
      this.#open.delete(kind);
      if (open.row) this.write({ ...open.row, count: open.held });
    }
  }

  #start(kind: string): void {
    // unref: a window never keeps a stopping process alive (stop flushes it).
    const timer = setTimeout(() => this.#end(kind), this.windowMs).unref();
    this.#open.set(kind, { timer, held: 0 });
  }

  #end(kind: string): void {
    const open = this.#open.get(kind);
    if (!open) return;
    this.#open.delete(kind);
    if (!open.row) return;
    this.write({ ...open.row, count: open.held });
    this.#start(kind);
  }
}

/** Two refusals of one kind as one row: the later reason; a field both share, or null. */
function together(held: RefusalRow, next: RefusalRow): RefusalRow {
  return {
    kind: next.kind,
    repositoryFullName: held.repositoryFullName === next.repositoryFullName ? next.repositoryFullName : null,
    prNumber: held.prNumber === next.prNumber ? next.prNumber : null,
    actor: held.actor === next.actor ? next.actor : null,
    reason: next.reason,
  };
}
