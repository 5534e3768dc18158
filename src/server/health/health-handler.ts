// The health room: /health (liveness, from the last known state, never waiting on the database) and
// /ready (readiness, a bounded ping) — this file — and the database check both read (database-check).

import type { IncomingMessage, ServerResponse } from "node:http";
import { DatabaseCheck } from "./database-check.js";

export interface HealthInfo {
  version: string;
  /** `app` when the GitHub App is loaded, `setup` while it still has to be registered. */
  mode: "app" | "setup";
  /** The process's ROLE in app mode (web, worker or all). */
  role?: string;
  /** True once the process is stopping: readiness then fails, so no new traffic is sent here. */
  stopping?: () => boolean;
  database: { kind: string; ping(): Promise<void> };
  /** How agent calls are confined (absent in setup mode, where no agent runs). */
  sandbox?: string;
  /** Deliveries answered but not yet written to the database. */
  intake?: () => { backlog(): number } | undefined;
  /** The run queue once started (app mode); only whether it exists is looked at. */
  queue?: () => unknown;
  /** A database ping slower than this counts as not ready (default 1000 ms). */
  databaseTimeoutMs?: number;
  /**
   * ROLE=all's worker process: starting, running, idle (exited with nothing to do, started again on
   * demand: not a fault), restarting, stopped (absent: workers run in this process or nowhere).
   */
  workers?: () => string | undefined;
}

/** /health refreshes the last known database state in the background when it is older than this. */
const REFRESH_AFTER_MS = 5000;

/**
 * GET /health (/healthz) — liveness: always 200 at once with the LAST KNOWN database state (a
 * background check refreshes it when stale; the answer never waits for the database). `status` is
 * "degraded" while that state is not ok.
 *
 * GET /ready (/readyz) — readiness: pings the database, waiting at most `databaseTimeoutMs`; 200 when
 * it answered (and, in app mode, the queue is started), else 503 with the reasons.
 */
export function createHealthHandler(info: HealthInfo) {
  const check = new DatabaseCheck(info.database, { timeoutMs: info.databaseTimeoutMs });
  check.refreshIfOlderThan(0); // the first state, learned before the server listens
  /** /health's `status`, from the last known database state (refreshed in the background when stale). */
  const status = (): "ok" | "starting" | "degraded" => {
    check.refreshIfOlderThan(REFRESH_AFTER_MS);
    const database = check.last();
    return database.ok === true ? "ok" : database.ok === null ? "starting" : "degraded";
  };

  const handler = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const path = req.url?.split("?")[0];
    if (req.method !== "GET") return false;
    if (path === "/health" || path === "/healthz") {
      const current = status();
      const database = check.last();
      const intake = info.intake?.();
      const body = {
        status: current,
        version: info.version,
        mode: info.mode,
        ...(info.role ? { role: info.role } : {}),
        database,
        ...(info.sandbox ? { sandbox: info.sandbox } : {}),
        ...(intake ? { intake: { backlog: intake.backlog() } } : {}),
        ...(info.workers?.() ? { workers: info.workers() } : {}),
      };
      res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" }).end(JSON.stringify(body));
      return true;
    }
    if (path === "/ready" || path === "/readyz") {
      const database = await check.check(); // bounded: settles within the timeout
      const reasons: string[] = [];
      if (!database.ok) reasons.push(`database: ${database.error ?? "not checked yet"}`);
      const queueStarted = info.queue ? info.queue() !== undefined : undefined;
      if (info.mode === "app" && queueStarted === false) reasons.push("queue: not started");
      if (info.stopping?.()) reasons.push("stopping");
      const intake = info.intake?.();
      const ready = reasons.length === 0;
      const body = {
        status: ready ? "ready" : "not ready",
        version: info.version,
        mode: info.mode,
        ...(info.role ? { role: info.role } : {}),
        database: { ...database, timeoutMs: check.timeoutMs, lastOkAgoMs: check.lastOkAgoMs() },
        ...(queueStarted !== undefined ? { queue: { started: queueStarted } } : {}),
        ...(intake ? { intake: { backlog: intake.backlog() } } : {}),
        ...(ready ? {} : { reasons }),
      };
      res
        .writeHead(ready ? 200 : 503, { "content-type": "application/json", "cache-control": "no-store" })
        .end(JSON.stringify(body));
      return true;
    }
    return false;
  };
  return Object.assign(handler, { status });
}
