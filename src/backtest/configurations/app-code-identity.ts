import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Folders of the code root a backtest never loads (checked with `depcruise src/backtest/run-backtest-cli.ts`):
 * the web pages, webhook intake, queue, commands, wiring and doctor. Everything else is hashed, so a folder
 * added later counts until it is named here — an edit there sets results aside rather than reusing them.
 */
const NOT_LOADED = new Set(["commands", "doctor", "intake", "queue", "web", "webhooks", "wiring"]);

/**
 * What identifies the app's reviewing code, for a backtest's fingerprint: a sha256 of every file under the
 * code root's folders (`src/` under tsx, `dist/` in a build: one .js per .ts) except those a backtest never
 * loads — the prompts, the pipeline, the ledger, the agents' invocation, the config defaults — and of
 * package.json's version and dependencies (the Claude Code and Codex CLIs are pinned there).
 *
 * Why a hash and not a prompt-version constant: a constant is only as good as the memory of whoever edits a
 * prompt, and convergence, placement and the ledger change results as much as the prompt's words. The
 * price is that any edit there (a comment included) sets stored results aside, and that the same version run
 * from src/ and from dist/ has two identities; both err towards reviewing again, never towards an old score.
 */
export function appCodeIdentity(
  codeRoot: string = fileURLToPath(new URL("../..", import.meta.url)),
  packageJson: string = fileURLToPath(new URL("../../../package.json", import.meta.url)),
): string {
  const hash = createHash("sha256");
  const pkg = JSON.parse(readFileSync(packageJson, "utf8")) as { version?: string; dependencies?: unknown };
  hash.update(JSON.stringify({ version: pkg.version ?? null, dependencies: pkg.dependencies ?? null }));
  const files = readdirSync(codeRoot, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(codeRoot, join(entry.parentPath, entry.name)).split(sep).join("/"))
    .filter((path) => path.includes("/") && !NOT_LOADED.has(path.split("/")[0]!))
    .sort();
  for (const path of files) {
    hash.update(`\0${path}\0`);
    hash.update(readFileSync(join(codeRoot, path)));
  }
  return hash.digest("hex");
}
