import { existsSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { descendants } from "../helpers/descendants.js";
import { numbered } from "../helpers/flow-fixture.js";
import { useProcessWorlds } from "../helpers/use-process-worlds.js";
import { ProcessWorld, waitFor, type StartedApp } from "../helpers/process-world.js";
import { databaseKinds } from "../helpers/test-database.js";
import { isProcessAlive, processIdentity } from "../../src/system/process-identity.js";

/**
 * Stopping the app as people and supervisors do: `npm start` in a terminal (npm → tsx's CLI → the app, one
 * process group), then Ctrl-C (SIGINT to the group), `kill -- -PGID` or systemd (SIGTERM to the group), or
 * the `npm start` process killed alone. Every process in the group gets the signal and npm and tsx forward
 * a copy to the app as well: one stop, however many copies.
 */

const kinds = await databaseKinds();
const world = useProcessWorlds();

/** The app's own pid (the node process running src/index.ts, below npm and tsx), from its log. */
function appPid(app: StartedApp): number {
  const line = app
    .output()
    .split("\n")
    .find((l) => /"msg":"no-mistakes \S+ listening/.test(l));
  return (JSON.parse(line!) as { pid: number }).pid;
}

function lines(app: StartedApp, msg: string): string[] {
  return app
    .output()
    .split("\n")
    .filter((l) => l.includes(`"msg":"${msg}`));
}

/** `npm start` with the PR's first push delivered and the reviewer's turn running (it never ends by itself). */
async function npmStartMidTurn(): Promise<{ w: ProcessWorld; app: StartedApp }> {
  const w = await world();
  const app = await w.start({
    name: "app",
    launcher: "npm",
    steps: [{ role: "reviewer", delayMs: 600_000 }],
    env: { STOP_GRACE: "60s", LOG_LEVEL: "debug" },
  });
  w.sendWebhooksTo(app);
  const head = w.fixture.push({ "src/app.ts": numbered("app", 30, { 11: "for (i = 0; i <= n; i++)" }) }, "loop");
  const attempt = await w.github.deliver("pull_request", w.fixture.prPayload("opened", head));
  expect(attempt.status_code, attempt.status).toBe(200);
  const runId = await waitFor("the run row", () => w.runId(), 30_000);
  await waitFor(
    "the reviewer's turn to start",
    async () => (await w.turns(runId)).find((t) => t.status === "running"),
    60_000,
  );
  return { w, app };
}

describe.skipIf(!kinds.includes("postgres"))("stopping `npm start` (real processes, PostgreSQL)", () => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`${signal} to npm start's process group mid-turn: one graceful stop (the copies npm and tsx forward, and one 50 ms later, are ignored), /health still answers; a second ${signal} 3 s later stops at once`, async () => {
      const { app } = await npmStartMidTurn();
      const child = processIdentity(appPid(app));

      process.kill(-app.child.pid!, signal);
      // npm and tsx forward their copy when they get to it (or not at all): one more, as they would.
      await sleep(50);
      process.kill(child.pid, signal);
      await sleep(2500);
      expect(isProcessAlive(child)).toBe(true);
      expect(lines(app, "stopping at once")).toEqual([]);
      expect(lines(app, "stopping: running turns get the grace period")).toHaveLength(1);
      expect(lines(app, "duplicate stop signal ignored").length).toBeGreaterThan(0);
      expect((await fetch(app.url("/health"))).status).toBe(200);

      await sleep(500);
      // The group outlives its leader: npm itself may be gone by now (a SIGTERM ends the `sh -c` under it).
      process.kill(-app.child.pid!, signal);
      await waitFor("the app to exit at once", () => !isProcessAlive(child), 5000);
      expect(lines(app, "stopping at once")).toHaveLength(1);
    });
  }

  for (const signal of ["SIGKILL", "SIGTERM"] as const) {
    it(`npm start's pid alone sent ${signal} (the embedded database): the app stops gracefully and exits, the DATA_DIR lock freed`, async () => {
      const w = await world();
      const app = await w.start({ name: "app", launcher: "npm", env: { STOP_GRACE: "2s", DATABASE_URL: "" } });
      const child = processIdentity(appPid(app));
      const lock = join(app.dataDir, "pglite.lock");
      expect(existsSync(lock)).toBe(true);

      const tree = descendants(app.child.pid!);
      process.kill(app.child.pid!, signal);
      try {
        await waitFor(`the app to exit after npm start got ${signal}`, () => !isProcessAlive(child), 30_000);
      } finally {
        for (const pid of tree) {
          try {
            process.kill(pid, "SIGKILL"); // what is left of a failed run, not to outlive the test
          } catch {
            // gone, as it should be
          }
        }
      }
      expect(lines(app, "stopping: running turns get the grace period")).toHaveLength(1);
      expect(lines(app, "stopping at once")).toEqual([]);
      expect(existsSync(lock)).toBe(false);
    });
  }
});
