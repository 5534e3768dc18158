import { Counter, Gauge, Histogram, type Registry } from "prom-client";

/** The webhook requests' instruments: how fast they are answered, how, and what the intake holds unwritten. */
export function webhookInstruments(registers: Registry[], backlog: (() => number | undefined) | undefined) {
  const ackSeconds = new Histogram({
    name: "webhook_ack_seconds",
    help: "Time from a webhook request's start to its answer being written.",
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const deliveries = new Counter({
    name: "webhook_deliveries_total",
    help: "Webhook deliveries by event and outcome: accepted, ignored, rejected (4xx), failed (5xx) when answered; duplicate when the intake finds the delivery already recorded, replay when its body was applied under another delivery id.",
    labelNames: ["event", "outcome"],
    registers,
  });
  const intakeBacklog = new Gauge({
    name: "intake_backlog",
    help: "Deliveries answered but not yet written to the database.",
    registers,
    collect() {
      const value = backlog?.();
      if (value !== undefined) this.set(value);
    },
  });
  return { ackSeconds, deliveries, intakeBacklog };
}
