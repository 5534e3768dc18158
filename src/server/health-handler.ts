import type { IncomingMessage, ServerResponse } from "node:http";

export interface HealthInfo {
  version: string;
  /** `app` when the GitHub App is loaded, `setup` while it still has to be registered. */
  mode: "app" | "setup";
  database: { kind: string; ping(): Promise<void> };
  /** How agent calls are confined (absent in setup mode, where no agent runs). */
  sandbox?: string;
  /** Deliveries answered but not yet written to the database. */
  intake?: () => { backlog(): number } | undefined;
}

/** GET /health: 200 with JSON when the database answers, 503 when it does not. */
export function createHealthHandler(info: HealthInfo) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const path = req.url?.split("?")[0];
    if (req.method !== "GET" || (path !== "/health" && path !== "/healthz")) return false;
    let database: { kind: string; ok: boolean; error?: string };
    try {
      await info.database.ping();
      database = { kind: info.database.kind, ok: true };
    } catch (error) {
      database = { kind: info.database.kind, ok: false, error: (error as Error).message };
    }
    const intake = info.intake?.();
    const body = { status: database.ok ? "ok" : "degraded", version: info.version, mode: info.mode, database, ...(info.sandbox ? { sandbox: info.sandbox } : {}), ...(intake ? { intake: { backlog: intake.backlog() } } : {}) };
    res.writeHead(database.ok ? 200 : 503, { "content-type": "application/json" }).end(JSON.stringify(body));
    return true;
  };
}
