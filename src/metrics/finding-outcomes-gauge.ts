import type { Logger } from "pino";
import { Gauge, type Registry } from "prom-client";
import type { FindingOutcomeStat } from "./finding-outcome-stats.js";

/** Posted findings by what became of them, read with `read` at each scrape (a failed read is a warn line). */
export function findingOutcomesGauge(
  registers: Registry[],
  read: (() => Promise<FindingOutcomeStat[]>) | undefined,
  log: Logger | undefined,
) {
  return new Gauge({
    name: "findings_outcomes",
    help: "Posted findings by repository, the agent and model whose review raised them, and outcome: fixed, dismissed, withdrawn, open-at-merge, abandoned, or open (none yet).",
    labelNames: ["repository", "agent", "model", "outcome"],
    registers,
    async collect() {
      this.reset();
      if (!read) return;
      try {
        for (const s of await read())
          this.set({ repository: s.repository, agent: s.agent, model: s.model, outcome: s.outcome }, s.count);
      } catch (error) {
        log?.warn({ err: error }, "finding outcome metrics could not be read");
      }
    },
  });
}
