import { Gauge, type Registry } from "prom-client";
import type { QueueStat } from "./queue-stats.js";

/** Job states that are still waiting to run: the age of their oldest is how far behind the queue is. */
const WAITING_STATES = new Set(["created", "retry"]);

/** The queue's gauges, both read from one snapshot of its jobs per scrape (`stats`). */
export function queueInstruments(registers: Registry[], stats: () => Promise<QueueStat[] | undefined>) {
  const jobs = new Gauge({
    name: "queue_jobs",
    help: "pg-boss jobs per queue and state.",
    labelNames: ["queue", "state"],
    registers,
    async collect() {
      const snapshot = await stats();
      this.reset();
      for (const s of snapshot ?? []) this.set({ queue: s.queue, state: s.state }, s.count);
    },
  });
  const oldestJobAge = new Gauge({
    name: "queue_oldest_job_age_seconds",
    help: "Age of the oldest job waiting to run (created or retry) per queue; 0 when none waits.",
    labelNames: ["queue"],
    registers,
    async collect() {
      const snapshot = await stats();
      this.reset();
      const oldest = new Map<string, number>();
      for (const s of snapshot ?? []) {
        const age = WAITING_STATES.has(s.state) ? (s.oldestAgeSeconds ?? 0) : 0;
        oldest.set(s.queue, Math.max(oldest.get(s.queue) ?? 0, age));
      }
      for (const [queue, age] of oldest) this.set({ queue }, age);
    },
  });
  return { jobs, oldestJobAge };
}
