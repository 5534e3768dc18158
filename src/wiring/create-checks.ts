import { join } from "node:path";
import type { AgentSandbox } from "../agents/sandbox/agent-sandbox.js";
import { CommandRunner, SetupCache, type Checks } from "../checks/index.js";
import type { EnvConfig } from "../config/env/env-config.js";
import type { Metrics } from "../metrics/metrics.js";

/**
 * Running repositories' own commands: only in the agents' bubblewrap sandbox (never with AGENT_SANDBOX=off,
 * never with CHECKS=off), with scratch checkouts and the setups' cache under DATA_DIR/checks; the egress
 * proxies' refusals counted in `metrics`.
 */
export function createChecks(
  config: EnvConfig,
  sandbox: AgentSandbox | undefined,
  metrics?: Metrics,
): Checks | undefined {
  if (!config.checks.enabled || sandbox === undefined || sandbox.kind !== "bubblewrap") return undefined;
  const root = join(config.dataDir, "checks");
  return {
    runner: new CommandRunner({
      sandbox,
      scratchDir: join(root, "scratch"),
      concurrency: config.checks.concurrency,
      ...(metrics ? { onEgressRefused: () => metrics.egressRefusals.inc() } : {}),
    }),
    cache: new SetupCache(join(root, "cache"), config.checks.cacheBytes),
    registries: config.checks.registries,
    scratchDir: join(root, "scratch"),
  };
}
