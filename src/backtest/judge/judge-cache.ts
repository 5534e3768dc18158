import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { writeFileReplacing } from "../../system/write-file-replacing.js";
import type { JudgeVerdict } from "./judge-verdict.js";

/**
 * The judge's answers on disk, keyed by the sha256 of (judge identity, prompt version, finding text, issue
 * text): asking the same question again — a rerun, a resumed backtest, another configuration that found
 * the same thing — costs nothing. Written whole after each new answer (temp file, then rename).
 */
export class JudgeCache {
  #entries: Record<string, JudgeVerdict> = {};

  private constructor(private readonly path: string) {}

  static async open(path: string): Promise<JudgeCache> {
    const cache = new JudgeCache(path);
    let text: string | undefined;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    if (text !== undefined) cache.#entries = JSON.parse(text) as Record<string, JudgeVerdict>;
    return cache;
  }

  static key(parts: readonly unknown[]): string {
    return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
  }

  get(key: string): JudgeVerdict | undefined {
    return this.#entries[key];
  }

  async put(key: string, verdict: JudgeVerdict): Promise<void> {
    this.#entries[key] = verdict;
    await writeFileReplacing(this.path, JSON.stringify(this.#entries, null, 1));
  }

  get size(): number {
    return Object.keys(this.#entries).length;
  }
}
