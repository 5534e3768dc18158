import { existsSync, readdirSync, realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * The read-only paths a CLI needs inside the sandbox: the npm package its binary belongs to (found
 * from the binary's real path), plus `siblings` — packages of the same scope whose names start with
 * the given prefix (Codex's native binary lives in @openai/codex-linux-x64 next to @openai/codex).
 * A binary outside any installed package gets its own directory.
 */
export function cliRuntimePaths(cli: string, siblingsPrefix?: string): string[] {
  let real: string;
  try {
    real = realpathSync(cli);
  } catch {
    return []; // a missing binary: the call fails with its own clear error
  }
  const root = packageRoot(real) ?? dirname(real);
  const paths = [root];
  const scope = dirname(root);
  if (siblingsPrefix && basename(scope).startsWith("@")) {
    for (const name of readdirSync(scope)) {
      if (name.startsWith(siblingsPrefix) && join(scope, name) !== root) paths.push(realpathSync(join(scope, name)));
    }
  }
  return paths;
}

/** The installed package a file belongs to: only ever a folder inside node_modules (never the app itself). */
function packageRoot(file: string): string | undefined {
  if (!file.includes("/node_modules/")) return undefined;
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (basename(dir) === "node_modules") return undefined;
  }
  return undefined;
}
