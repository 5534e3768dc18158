import { sleep } from "./common.js";

export type Target = "app" | "bare";

export interface RoundPlan {
  /** Deliveries per second to each server while a load round runs. */
  rate: number;
  /** Length of every round, load or quiet. */
  blockMs: number;
  /** This much load at the start is sent but not measured. */
  warmSeconds: number;
  /** This much load is measured. */
  seconds: number;
}

export interface Round {
  index: number;
  /** A load round sends to both servers; a quiet round sends nothing (the app's workers go on reviewing). */
  load: boolean;
  measured: boolean;
  /** performance.now() when the round starts. */
  startsAt: number;
  /** Deliveries each server gets in the round. */
  deliveries: number;
}

/** The schedule: load and quiet rounds alternate, each `blockMs` long, starting 50 ms from now. */
export function planRounds(plan: RoundPlan): Round[] {
  const perRound = Math.round((plan.rate * plan.blockMs) / 1000);
  const warmRounds = Math.ceil((plan.warmSeconds * 1000) / plan.blockMs);
  const count = 2 * (warmRounds + Math.ceil((plan.seconds * 1000) / plan.blockMs));
  const t0 = performance.now() + 50;
  return Array.from({ length: count }, (_, r) => ({
    index: r,
    load: r % 2 === 0,
    measured: r >= 2 * warmRounds,
    startsAt: t0 + r * plan.blockMs,
    deliveries: r % 2 === 0 ? perRound : 0,
  }));
}

/**
 * Sends open loop: every delivery at its scheduled time whatever the answers before it did (latency
 * is counted from that time, so a slow server cannot slow the load down). In a load round both servers
 * get `rate` deliveries a second, interleaved: one server's are due at a quarter of each interval, the
 * other's at three quarters (at 100/s: 2.5, 7.5, 12.5 … ms), and which goes first alternates by round.
 * So anything that stalls the machine — the app's review work, the host — falls on both servers'
 * deliveries alike, and the p99 ratio compares the servers, not the moments each was measured in.
 * `atRoundStart` — the driver's own bookkeeping, run at each round's start (and once more after the
 * last, with `undefined`) — has a quarter interval before the first delivery is due; it must not block.
 */
export async function runRounds(
  rounds: Round[],
  plan: RoundPlan,
  send: (target: Target, round: Round, scheduledAt: number) => Promise<void>,
  atRoundStart: (round: Round | undefined) => void = () => {},
): Promise<{ maxSchedulerLagMs: number }> {
  const pending: Promise<void>[] = [];
  const interval = 1000 / plan.rate;
  let maxLag = 0;
  const waitUntil = async (at: number) => {
    const wait = at - performance.now();
    if (wait > 1) await sleep(wait - 0.5);
    while (performance.now() < at) {
      // sub-millisecond spin to the scheduled time
    }
  };
  for (const round of rounds) {
    await waitUntil(round.startsAt);
    atRoundStart(round);
    const order: Target[] = Math.floor(round.index / 2) % 2 === 0 ? ["app", "bare"] : ["bare", "app"];
    for (let i = 0; i < round.deliveries; i++)
      for (const [k, target] of order.entries()) {
        const at = round.startsAt + (i + 0.25 + k * 0.5) * interval;
        await waitUntil(at);
        maxLag = Math.max(maxLag, performance.now() - at);
        pending.push(send(target, round, at));
      }
  }
  const last = rounds.at(-1);
  if (last) await waitUntil(last.startsAt + plan.blockMs);
  atRoundStart(undefined);
  await Promise.all(pending);
  return { maxSchedulerLagMs: maxLag };
}
