import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { descendants } from "../helpers/descendants.js";
import { useProcessWorlds } from "../helpers/use-process-worlds.js";
import { ONE_FINDING, pushAndDeliver, reviewPostedAt, waitFor, type StartedApp } from "../helpers/process-world.js";
import { databaseKinds } from "../helpers/test-database.js";

/**
 * ROLE=all's worker process started on demand (WORKER_IDLE_EXIT): real app processes, real databases
 * (PostgreSQL, and the embedded one as `npm start` runs it), the GitHub stand-in behind an HTTP relay,
 * signed webhooks. The idle time is short here (2 s); `npm start`'s default is 60 s.
 */

const kinds = await databaseKinds();
const world = useProcessWorlds();

/** The app's worker process (its command line names worker-process), if one runs. */
function workerPid(app: StartedApp): number | undefined {
  return descendants(app.child.pid!).find((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("worker-process");
    } catch {
      return false;
    }
  });
}

async function health(app: StartedApp): Promise<{ status: string; workers?: string }> {
  return (await (await fetch(app.url("/health"))).json()) as { status: string; workers?: string };
}

/** The app's JSON log lines whose message starts with this. */
function lines(app: StartedApp, msg: string): Record<string, unknown>[] {
  return app
    .output()
    .split("\n")
    .filter((l) => l.includes(`"msg":"${msg}`))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const databases = [
  ...(kinds.includes("postgres") ? [["PostgreSQL", {}] as const] : []),
  // No DATABASE_URL: DATA_DIR/pglite, served to the worker process by the embedded database's process.
  ["the embedded database", { DATABASE_URL: "" }] as const,
];

describe("ROLE=all's worker process on demand", { timeout: 180_000 }, () => {
  for (const [name, env] of databases) {
    it(`on ${name}: none at an idle start (/health: workers idle, status ok; ready); a delivery starts it and is reviewed; it exits after WORKER_IDLE_EXIT and leaves the tree; a delivery as it exits is reviewed by a new one`, async () => {
      const w = await world();
      const app = await w.start({
        name: "app",
        steps: [{ role: "reviewer", answer: ONE_FINDING }],
        env: { WORKER_IDLE_EXIT: "2s", ...env },
      });
      w.sendWebhooksTo(app);

      // Nothing queued at start: no worker process, and that is not a fault.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(workerPid(app)).toBeUndefined();
      expect(await health(app)).toMatchObject({ status: "ok", workers: "idle" });
      expect((await fetch(app.url("/ready"))).status).toBe(200);

      const first = await pushAndDeliver(w, "for (i = 0; i <= n; i++)");
      await waitFor("the first push's review", () => reviewPostedAt(w, first), 60_000);
      expect(lines(app, "worker process starting on demand").map((l) => l.reason)).toEqual(["a delivery queued a job"]);

      // Idle for 2 s: it asks to exit, is stopped, and leaves the process tree; /health says idle.
      const exiting = await waitFor(
        "the worker process to exit idle",
        () => lines(app, "worker process exiting: idle")[0],
        30_000,
      );
      expect(exiting.reason).toMatch(/no job running, waiting or retrying for 2 s/);
      // A delivery as it exits (or just after: the exit takes ~0.1 s, so which one is not controlled here):
      // a new worker process reviews it.
      const second = await pushAndDeliver(w, "for (i = 0; i < n; i++)", first);
      await waitFor("the second push's review", () => reviewPostedAt(w, second), 60_000);
      expect(lines(app, "worker process starting on demand")).toHaveLength(2);

      await waitFor(
        "a second idle exit",
        () => lines(app, "worker process exited: idle").length >= 2 || undefined,
        30_000,
      );
      await waitFor("the worker process to leave the tree", () => workerPid(app) === undefined || undefined, 10_000);
      expect(await health(app)).toMatchObject({ status: "ok", workers: "idle" });
      expect((await fetch(app.url("/ready"))).status).toBe(200);
      // An idle exit is not a crash: nothing restarted it.
      expect(lines(app, "worker process exited; restarting it")).toEqual([]);
      expect(w.reviewsOf(first)).toHaveLength(1);
      expect(w.reviewsOf(second)).toHaveLength(1);
      expect(app.child.exitCode).toBeNull();
    });
  }

  it.runIf(kinds.includes("postgres"))(
    "a job left by an earlier process (killed mid-turn) is worked at the next start with no delivery, then the worker process exits idle",
    async () => {
      const w = await world();
      const first = await w.start({ name: "app", steps: [{ role: "reviewer", delayMs: 600_000 }] });
      w.sendWebhooksTo(first);
      const head = await pushAndDeliver(w, "for (i = 0; i <= n; i++)");
      const runId = await waitFor("the run row", () => w.runId(), 30_000);
      await waitFor(
        "the reviewer's turn to start",
        async () => (await w.turns(runId)).find((t) => t.status === "running"),
        60_000,
      );
      await w.kill(first);

      const second = await w.start({
        name: "app",
        steps: [{ role: "reviewer", answer: ONE_FINDING }],
        env: { WORKER_IDLE_EXIT: "2s" },
      });
      await waitFor("the head's review after the restart", () => reviewPostedAt(w, head), 75_000);
      expect(lines(second, "worker process starting on demand").map((l) => l.reason)).toContain(
        "jobs are queued at start",
      );
      await waitFor(
        "the idle exit",
        () => lines(second, "worker process exited: idle").length > 0 || undefined,
        30_000,
      );
      expect(workerPid(second)).toBeUndefined();
      expect((await w.jobs(runId)).filter((j) => ["created", "retry", "active"].includes(j.state))).toEqual([]);
      expect(w.reviewsOf(head)).toHaveLength(1);
    },
  );
});
