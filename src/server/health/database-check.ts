import { performance } from "node:perf_hooks";

/** What is known about the database: the outcome of the last ping (or of its timeout), and when. */
export interface DatabaseState {
  kind: string;
  /** `null` until the first ping has answered or timed out. */
  ok: boolean | null;
  error?: string;
  /** How long ago this state was learned (ms). */
  ageMs: number;
}

export interface DatabaseCheckOptions {
  /** A ping that takes longer counts as "not answering" (default 1000 ms). */
  timeoutMs?: number;
  /**
   * A ping still pending after this long is given up (its late outcome is ignored) and the next check
   * starts a new one (default 5 × timeoutMs). Until then checks share the pending ping, so a hung
   * database does not pile up one stuck ping per probe.
   */
  abandonAfterMs?: number;
}

/**
 * Pings the database with a bounded wait and remembers the last outcome. No timer outlives a check
 * (the race timer is cleared when the ping settles, and unref'd), so there is nothing to stop.
 */
export class DatabaseCheck {
  readonly timeoutMs: number;
  private readonly abandonAfterMs: number;
  private state: { ok: boolean | null; error?: string; at: number } = { ok: null, at: performance.now() };
  private lastOkAt: number | undefined;
  private pending: { ping: Promise<void>; startedAt: number } | undefined;

  constructor(
    private readonly database: { kind: string; ping(): Promise<void> },
    options: DatabaseCheckOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 1000;
    this.abandonAfterMs = options.abandonAfterMs ?? this.timeoutMs * 5;
  }

  /** The last known state; never touches the database. */
  last(): DatabaseState {
    const { ok, error, at } = this.state;
    return {
      kind: this.database.kind,
      ok,
      ...(error !== undefined ? { error } : {}),
      ageMs: Math.round(performance.now() - at),
    };
  }

  /** Milliseconds since the database last answered a ping; `null` when it never has. */
  lastOkAgoMs(): number | null {
    return this.lastOkAt === undefined ? null : Math.round(performance.now() - this.lastOkAt);
  }

  /** Starts a check when the last state is older than `maxAgeMs` and none is pending; never waits. */
  refreshIfOlderThan(maxAgeMs: number): void {
    if (this.pending || performance.now() - this.state.at < maxAgeMs) return;
    void this.check();
  }

  /**
   * Pings the database (or joins the ping already pending) and resolves within `timeoutMs` — at once
   * when the pending ping has already been waiting that long — with the state it learned.
   */
  async check(): Promise<DatabaseState> {
    const now = performance.now();
    if (this.pending && now - this.pending.startedAt >= this.abandonAfterMs) this.pending = undefined;
    const pending = this.pending ?? this.startPing(now);
    const waited = now - pending.startedAt;
    const answered = waited < this.timeoutMs ? await settledWithin(pending.ping, this.timeoutMs - waited) : false;
    if (!answered && this.pending === pending) {
      const pendingMs = Math.round(performance.now() - pending.startedAt);
      this.record(false, `no answer from the database within ${this.timeoutMs} ms (ping pending for ${pendingMs} ms)`);
    }
    return this.last();
  }

  private startPing(startedAt: number): { ping: Promise<void>; startedAt: number } {
    const ping = Promise.resolve().then(() => this.database.ping());
    const pending = { ping, startedAt };
    this.pending = pending;
    ping.then(
      () => this.settle(pending, true),
      (error: unknown) => this.settle(pending, false, error instanceof Error ? error.message : String(error)),
    );
    return pending;
  }

  private settle(pending: { ping: Promise<void> }, ok: boolean, error?: string): void {
    if (this.pending !== pending) return; // abandoned: a newer ping speaks for the database
    this.pending = undefined;
    this.record(ok, error);
  }

  private record(ok: boolean, error?: string): void {
    const at = performance.now();
    this.state = { ok, ...(error !== undefined ? { error } : {}), at };
    if (ok) this.lastOkAt = at;
  }
}

/** True when `promise` settles (either way) within `ms`; the timer is cleared either way and never holds the process. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  try {
    return await Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
