import { Counter, Histogram, type Registry } from "prom-client";

/** Runs of repositories' own code (setups, checks, reproducers): outcomes, times, the setup cache, egress refused. */
export function executionInstruments(registers: Registry[]) {
  const executions = new Counter({
    name: "executions_total",
    help: "Runs of a repository's own code by kind (setup, check, reproducer) and outcome (passed, failed, timed-out, limit, error; reproduced, not-reproduced, broken); a setup reused from the cache counts as passed.",
    labelNames: ["kind", "outcome"],
    registers,
  });
  const executionSeconds = new Histogram({
    name: "execution_seconds",
    help: "Wall time of runs of a repository's own code that ran (a setup reused from the cache did not), by kind.",
    labelNames: ["kind"],
    buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1200, 1800],
    registers,
  });
  const setupCache = new Counter({
    name: "setup_cache_total",
    help: "Setups by whether the cache had them: hit (reused) or miss (run, to fill it).",
    labelNames: ["result"],
    registers,
  });
  const egressRefusals = new Counter({
    name: "egress_refusals_total",
    help: "Connections from a sandboxed setup that its egress proxy refused: the host is not an allowed registry.",
    registers,
  });
  return { executions, executionSeconds, setupCache, egressRefusals };
}
