// The checks room: running the repository's own commands — a setup (with only the registries the operator
// allows), its checks and the reviewer's reproducers (with no network) — in the agent sandbox, on a scratch
// checkout that is thrown away; the setup's cache; the egress proxy. It imports the sandbox of src/agents and
// nothing of the flow. The pipeline's own checks room (src/pipeline/checks) decides what to run and records it.
import type { CommandRunner } from "./command-runner.js";
import type { EgressRule } from "../domain/egress-rule.js";
import type { SetupCache } from "./setup-cache.js";

export { CommandRunner } from "./command-runner.js";
export { DEFAULT_REGISTRIES, parseEgressRule, type EgressRule } from "../domain/egress-rule.js";
export type { EgressLog } from "./egress-proxy.js";
export { ranToExit, type ExecutionKind, type ExecutionResult, type ExecutionSpec } from "./execution.js";
export { SetupCache, setupCacheKey, type CachedSetup, type SetupScope } from "./setup-cache.js";

/** What the wiring hands the pipeline for running a repository's commands. */
export interface Checks {
  runner: CommandRunner;
  cache: SetupCache;
  /** The registries a setup may reach. */
  registries: readonly EgressRule[];
  /** Where scratch checkouts go (the worker's disk, never shown to another run). */
  scratchDir: string;
}
