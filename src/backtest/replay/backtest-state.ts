import { readFile } from "node:fs/promises";
import { writeFileReplacing } from "../../system/write-file-replacing.js";
import type { PrReviewResult } from "./pr-review-result.js";

interface StateFile {
  version: 1;
  /** Per configuration label: the fingerprint its results were made with, and each finished PR's result. */
  configurations: Record<string, { fingerprint: string; prs: Record<string, PrReviewResult> }>;
  /** What the judge has cost over every run of this backtest. */
  judgeSpentUsd: number;
  /** What reviews that did not finish (cut off, failed) cost: paid, though no result came of it. */
  unfinishedSpentUsd?: number;
  /** What stored reviews cost that were set aside since (their configuration or their PR's commits changed): paid all the same. */
  setAsideSpentUsd?: number;
}

/**
 * What a backtest has finished, on disk in its output directory (`state.json`): each configuration's
 * result per PR, written after every PR. A rerun reads it and skips what is there — no agent call, no
 * spend — unless the configuration changed (another fingerprint: its old results are set aside). What
 * every review and the judge cost stays in its spending, whatever became of their results.
 */
export class BacktestState {
  #file: StateFile = { version: 1, configurations: {}, judgeSpentUsd: 0 };

  private constructor(private readonly path: string) {}

  static async open(path: string): Promise<BacktestState> {
    const state = new BacktestState(path);
    let text: string | undefined;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    if (text !== undefined) {
      const parsed = JSON.parse(text) as StateFile;
      if (parsed.version !== 1) throw new Error(`${path}: a state file of another version (${String(parsed.version)})`);
      state.#file = parsed;
    }
    return state;
  }

  /**
   * The configuration's stored results; those of another fingerprint are dropped (they reviewed with
   * something else), what they cost kept in the spending (saved with the next change).
   */
  useConfiguration(label: string, fingerprint: string): { reused: number; dropped: number } {
    const existing = this.#file.configurations[label];
    if (existing?.fingerprint === fingerprint) return { reused: Object.keys(existing.prs).length, dropped: 0 };
    const dropped = Object.values(existing?.prs ?? {});
    this.#setAside(dropped);
    this.#file.configurations[label] = { fingerprint, prs: {} };
    return { reused: 0, dropped: dropped.length };
  }

  result(label: string, prId: string): PrReviewResult | undefined {
    return this.#file.configurations[label]?.prs[prId];
  }

  /** Everything spent so far: every stored review, the judge, reviews that did not finish, and reviews set aside. */
  spentUsd(): number {
    let total = this.#file.judgeSpentUsd + (this.#file.unfinishedSpentUsd ?? 0) + (this.#file.setAsideSpentUsd ?? 0);
    for (const c of Object.values(this.#file.configurations)) for (const r of Object.values(c.prs)) total += r.costUsd;
    return total;
  }

  async addJudgeSpend(usd: number): Promise<void> {
    if (usd === 0) return;
    this.#file.judgeSpentUsd += usd;
    await this.save();
  }

  async addUnfinishedSpend(usd: number): Promise<void> {
    if (usd === 0) return;
    this.#file.unfinishedSpentUsd = (this.#file.unfinishedSpentUsd ?? 0) + usd;
    await this.save();
  }

  async record(label: string, result: PrReviewResult): Promise<void> {
    const c = this.#file.configurations[label];
    if (!c) throw new Error(`configuration ${label} was not opened in the state`);
    // A result it replaces (the PR's commits changed since) was paid for all the same.
    this.#setAside(c.prs[result.prId] ? [c.prs[result.prId]!] : []);
    c.prs[result.prId] = result;
    await this.save();
  }

  #setAside(results: readonly PrReviewResult[]): void {
    const usd = results.reduce((s, r) => s + r.costUsd, 0);
    if (usd > 0) this.#file.setAsideSpentUsd = (this.#file.setAsideSpentUsd ?? 0) + usd;
  }

  private async save(): Promise<void> {
    await writeFileReplacing(this.path, JSON.stringify(this.#file, null, 1));
  }
}
