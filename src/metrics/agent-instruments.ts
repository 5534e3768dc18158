import { Counter, Histogram, type Registry } from "prom-client";

/** The agents' instruments: turn times, sessions that could not go on, tokens and spend. */
export function agentInstruments(registers: Registry[]) {
  const turnSeconds = new Histogram({
    name: "agent_turn_seconds",
    help: "Wall time of finished agent turns by role and session mode (started, resumed, fallback, cold).",
    labelNames: ["role", "mode"],
    buckets: [1, 5, 10, 30, 60, 120, 300, 600, 900, 1800, 3600],
    registers,
  });
  const fallbacks = new Counter({
    name: "agent_fallbacks_total",
    help: "Agent turns that could not continue their stored session, by reason.",
    labelNames: ["reason"],
    registers,
  });
  const tokens = new Counter({
    name: "agent_tokens_total",
    help: "Model tokens the agent reported, by role and kind (input, output).",
    labelNames: ["role", "kind"],
    registers,
  });
  const costUsd = new Counter({
    name: "agent_cost_usd_total",
    help: "Model spend in dollars as the agent reported it (Codex reports none), by role.",
    labelNames: ["role"],
    registers,
  });
  return { turnSeconds, fallbacks, tokens, costUsd };
}
