import { sleep } from "./common.js";

export type Target = "app" | "bare";

export interface BlockPlan {
  /** Deliveries per second while a block runs. */
  rate: number;
  blockMs: number;
  /** Per target, this much at the start is sent but not measured. */
  warmSeconds: number;
  /** Per target, this much is measured. */
  seconds: number;
}

export interface Block {
  index: number;
  target: Target;
  measured: boolean;
  /** performance.now() when its first delivery is due. */
  startsAt: number;
  deliveries: number;
}

/** The schedule: blocks alternate A B B A A B …, each `blockMs` long, starting 50 ms from now. */
export function planBlocks(plan: BlockPlan): Block[] {
  const perBlock = Math.round((plan.rate * plan.blockMs) / 1000);
  const warmBlocks = Math.ceil((plan.warmSeconds * 1000) / plan.blockMs);
  const count = 2 * (warmBlocks + Math.ceil((plan.seconds * 1000) / plan.blockMs));
  const t0 = performance.now() + 50;
  return Array.from({ length: count }, (_, b) => {
    const pair = Math.floor(b / 2);
    return {
      index: b,
      target: (b % 2 === 0) === (pair % 2 === 0) ? "app" : "bare",
      measured: b >= 2 * warmBlocks,
      startsAt: t0 + b * plan.blockMs,
      deliveries: perBlock,
    } as Block;
  });
}

/**
 * Sends open loop: every delivery at its scheduled time whatever the answers before it did (latency
 * is counted from that time, so a slow server cannot slow the load down). A block's deliveries are due
 * half an interval apart from its edges (at 100/s: 5, 15, … 995 ms), so `atBlockStart` — the driver's
 * own bookkeeping, run at the block's start (and once more after the last block, with `undefined`) —
 * has half an interval before the block's first delivery is due and does not delay it; it must not block.
 */
export async function runBlocks(
  blocks: Block[],
  plan: BlockPlan,
  send: (block: Block, scheduledAt: number) => Promise<void>,
  atBlockStart: (block: Block | undefined) => void = () => {},
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
  for (const block of blocks) {
    await waitUntil(block.startsAt);
    atBlockStart(block);
    for (let i = 0; i < block.deliveries; i++) {
      const at = block.startsAt + (i + 0.5) * interval;
      await waitUntil(at);
      maxLag = Math.max(maxLag, performance.now() - at);
      pending.push(send(block, at));
    }
  }
  const last = blocks.at(-1);
  if (last) await waitUntil(last.startsAt + plan.blockMs);
  atBlockStart(undefined);
  await Promise.all(pending);
  return { maxSchedulerLagMs: maxLag };
}
