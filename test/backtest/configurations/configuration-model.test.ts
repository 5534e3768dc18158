import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowsModel, modelPolicyFor } from "../../../src/agents/sandbox/model-policy.js";
import { cloneGit } from "../../../src/backtest/clone/clone-git.js";
import { parseBacktestArgs } from "../../../src/backtest/cli/parse-backtest-args.js";
import { prepareConfiguration } from "../../../src/backtest/configurations/prepare-configuration.js";
import type { BacktestOptions } from "../../../src/backtest/cli/backtest-options.js";
import { captureLogger } from "../../helpers/capture-logger.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";
import { createTestDatabase, type TestDatabase } from "../../helpers/test-database.js";
import { baseEnv, makeRepo, WIDGETS } from "../backtest-world.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase("pglite");
}, 120_000);
afterAll(async () => {
  await database.dispose();
  removeTempDirs();
});

describe("a backtest configuration's model, as its CLI sends it", () => {
  it("--b-model claude-opus-4-1 validates: B's agent sends claude-opus-4-8, the proxy allows it, and B says so", async () => {
    const root = tempDir("nm-backtest-model-");
    const clone = join(root, "clone");
    makeRepo(clone);
    const options = parseBacktestArgs(
      ["--repo", clone, "--merges", "--b-model", "claude-opus-4-1"],
      {},
    ) as BacktestOptions;
    const b = options.configurations[1]!;
    expect(b.env).toEqual({ AGENT_MODEL: "claude-opus-4-1" });

    const prepared = await prepareConfiguration(b, {
      db: database.handle.db,
      log: captureLogger().log,
      baseEnv: { ...baseEnv(), AGENT: "claude", ANTHROPIC_API_KEY: "sk-ant-backtest-test" },
      outDir: join(root, "out"),
      review: { git: cloneGit(clone), branch: "HEAD", replay: false, repoName: WIDGETS, appIdentity: "test" },
    });

    expect(prepared.describe).toBe(
      "claude (claude-opus-4-1, sent as claude-opus-4-8), the clone's .github/no-mistakes.yml",
    );
    const model = await prepared.agent.resolveModel!();
    expect(model).toEqual({ configured: "claude-opus-4-1", isDefault: false, sent: "claude-opus-4-8" });
    expect(allowsModel(modelPolicyFor("anthropic", model, {}), "claude-opus-4-8")).toBe(true);
  }, 90_000);
});
