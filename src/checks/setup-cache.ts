import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { lstat, mkdir, readdir, readFile, rename, rm, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * Who may read a cached setup: `base` — filled only from the base branch's own code and inputs, read by
 * every PR whose setup inputs are the same; or one run's own (`run-<id>`), for a PR whose inputs differ,
 * which no other PR ever reads. A PR can never write what another PR runs on.
 */
export type SetupScope = "base" | `run-${number}`;

export interface CachedSetup {
  /** The folder stacked over a scratch checkout: what the setup added or changed. */
  tree: string;
  scope: SetupScope;
  key: string;
}

interface Meta {
  bytes: number;
  filledAt: string;
}

/** The key of a setup: its commands, the files its inputs are (path and content), and the platform. */
export function setupCacheKey(
  commands: readonly string[],
  files: readonly { path: string; content: string }[],
): string {
  const hash = createHash("sha256").update(`${process.platform}-${process.arch}\0`);
  for (const command of commands) hash.update(`cmd\0${command}\0`);
  for (const file of [...files].sort((a, b) => a.path.localeCompare(b.path)))
    hash.update(`file\0${file.path}\0${file.content.length}\0${file.content}\0`);
  return hash.digest("hex").slice(0, 40);
}

/**
 * Setups' results on the worker's disk (`<root>/<repository id>/<scope>/<key>/tree`), never shared between
 * repositories. A result appears whole (filled aside, then renamed into place) or not at all; past
 * `maxBytes` in all, the least recently used go first.
 */
export class SetupCache {
  readonly #root: string;
  readonly #maxBytes: number;
  readonly #filling = new Map<string, Promise<boolean>>();

  constructor(root: string, maxBytes: number) {
    this.#root = root;
    this.#maxBytes = maxBytes;
  }

  #dir(repositoryId: number, scope: SetupScope, key: string): string {
    return join(this.#root, String(repositoryId), scope, key);
  }

  /** The cached setup, when there is one (and marks it used). */
  async find(repositoryId: number, scope: SetupScope, key: string): Promise<CachedSetup | undefined> {
    const dir = this.#dir(repositoryId, scope, key);
    if (!existsSync(join(dir, "meta.json"))) return undefined;
    const now = new Date();
    await utimes(join(dir, "meta.json"), now, now).catch(() => undefined);
    return { tree: join(dir, "tree"), scope, key };
  }

  /**
   * Fills the entry: `fill(tree)` runs the setup and saves into `tree`, true when it succeeded. Two fills
   * of one entry in this process share one run; a failed fill leaves nothing behind.
   */
  async fill(
    repositoryId: number,
    scope: SetupScope,
    key: string,
    fill: (tree: string) => Promise<boolean>,
  ): Promise<CachedSetup | undefined> {
    const dir = this.#dir(repositoryId, scope, key);
    const running = this.#filling.get(dir) ?? this.#fillOnce(dir, fill).finally(() => this.#filling.delete(dir));
    this.#filling.set(dir, running);
    return (await running) ? this.find(repositoryId, scope, key) : undefined;
  }

  async #fillOnce(dir: string, fill: (tree: string) => Promise<boolean>): Promise<boolean> {
    const aside = `${dir}.filling-${randomBytes(4).toString("hex")}`;
    await mkdir(join(aside, "tree"), { recursive: true });
    try {
      if (!(await fill(join(aside, "tree")))) return false;
      const meta: Meta = { bytes: await treeBytes(join(aside, "tree")), filledAt: new Date().toISOString() };
      await writeFile(join(aside, "meta.json"), JSON.stringify(meta));
      await rm(dir, { recursive: true, force: true });
      await rename(aside, dir);
      await this.#evict();
      return true;
    } finally {
      await rm(aside, { recursive: true, force: true });
    }
  }

  /** Drops a run's own entries (its PR closed). */
  async forgetRun(repositoryId: number, runId: number): Promise<void> {
    await rm(join(this.#root, String(repositoryId), `run-${runId}`), { recursive: true, force: true });
  }

  /** Least recently used first, until what is left fits `maxBytes`. */
  async #evict(): Promise<void> {
    const entries = await this.#entries();
    let total = entries.reduce((sum, e) => sum + e.bytes, 0);
    for (const entry of entries.sort((a, b) => a.usedAt - b.usedAt)) {
      if (total <= this.#maxBytes) break;
      await rm(entry.dir, { recursive: true, force: true });
      total -= entry.bytes;
    }
  }

  async #entries(): Promise<{ dir: string; bytes: number; usedAt: number }[]> {
    const found: { dir: string; bytes: number; usedAt: number }[] = [];
    for (const repo of await readdir(this.#root).catch(() => [] as string[]))
      for (const scope of await readdir(join(this.#root, repo)).catch(() => [] as string[]))
        for (const key of await readdir(join(this.#root, repo, scope)).catch(() => [] as string[])) {
          const dir = join(this.#root, repo, scope, key);
          const meta = await readFile(join(dir, "meta.json"), "utf8").catch(() => undefined);
          if (meta === undefined) continue;
          const usedAt = (await lstat(join(dir, "meta.json"))).mtimeMs;
          found.push({ dir, bytes: (JSON.parse(meta) as Meta).bytes, usedAt });
        }
    return found;
  }
}

/** Bytes of the files under `dir` (not following links). */
async function treeBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    total += (await lstat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}
