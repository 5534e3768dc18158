import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
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
    await mkdir(dirname(this.path), { recursive: true });
    const temp = `${this.path}.${process.pid}.tmp`;
    await writeFile(temp, JSON.stringify(this.#entries, null, 1));
    await rename(temp, this.path);
  }

  get size(): number {
    return Object.keys(this.#entries).length;
  }
}
