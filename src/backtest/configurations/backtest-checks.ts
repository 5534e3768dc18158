import { join } from "node:path";
import type { AgentSandbox } from "../../agents/sandbox/agent-sandbox.js";
import { CommandRunner, SetupCache, type Checks } from "../../checks/index.js";
import type { EnvConfig } from "../../config/env/env-config.js";

/**
 * A configuration's way to run the repository's own commands, as the app's workers have it: only in the
 * bubblewrap sandbox and never with CHECKS=off, with its scratch checkouts and setups' cache under the
 * configuration's own data folder. With it the reviews run the reproducers the reviewer attaches, and the
 * report scores reproduced findings apart.
 */
export function backtestChecks(env: EnvConfig, sandbox: AgentSandbox, dataDir: string): Checks | undefined {
  if (!env.checks.enabled || sandbox.kind !== "bubblewrap") return undefined;
  const root = join(dataDir, "checks");
  return {
    runner: new CommandRunner({ sandbox, scratchDir: join(root, "scratch"), concurrency: env.checks.concurrency }),
    cache: new SetupCache(join(root, "cache"), env.checks.cacheBytes),
    registries: env.checks.registries,
    scratchDir: join(root, "scratch"),
  };
}
