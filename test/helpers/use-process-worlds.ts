import nock from "nock";
import { afterAll, afterEach, beforeAll } from "vitest";
import { ProcessWorld } from "./process-world.js";
import { removeTempDirs } from "./temp-dir.js";

/**
 * The hooks every file of app-process tests needs: nock closed to the network but for 127.0.0.1 (the app
 * processes and the relay live there; only the stand-in's made-up hosts are nock's), each test's worlds
 * closed after it — their processes' output printed when the test failed or DUMP_LOGS is set — and the
 * temporary directories removed at the end. Returns what makes a world for the current test.
 */
export function useProcessWorlds(): () => Promise<ProcessWorld> {
  const worlds: ProcessWorld[] = [];
  beforeAll(() => {
    nock.disableNetConnect();
    nock.enableNetConnect((host) => host.startsWith("127.0.0.1"));
  });
  afterEach(async (context) => {
    const failed = context.task.result?.state === "fail";
    for (const world of worlds.splice(0)) {
      if (failed || process.env.DUMP_LOGS) console.log(world.output());
      await world.close();
    }
  });
  afterAll(() => {
    nock.cleanAll();
    nock.enableNetConnect();
    removeTempDirs();
  });
  return async () => {
    const created = await ProcessWorld.create();
    worlds.push(created);
    return created;
  };
}
