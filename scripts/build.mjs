// `npm run build`: compiles src/ to JavaScript in dist/ (or the directory given as the first argument) with tsc,
// one .js per .ts at the same relative path, so every lookup relative to a module's own file
// (`new URL("../../drizzle", import.meta.url)`, node_modules/.bin, ../package.json) resolves the same from
// dist/ as from src/, provided the output directory sits in the package root beside src/. Files under src/
// that are not TypeScript (model-bridge.mjs, which the sandbox runs as a script) are copied next to them.
import { cpSync, readdirSync, rmSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const src = join(root, "src");
const out = resolve(process.argv[2] ?? join(root, "dist"));

rmSync(out, { recursive: true, force: true }); // no stale modules from deleted sources
const tsc = createRequire(join(root, "package.json")).resolve("typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json"), "--outDir", out], { stdio: "inherit" });

let copied = 0;
for (const entry of readdirSync(src, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || entry.name.endsWith(".ts")) continue;
  const from = join(entry.parentPath, entry.name);
  cpSync(from, join(out, relative(src, from)));
  copied++;
}
console.log(`built ${relative(process.cwd(), out) || "."} (${copied} asset${copied === 1 ? "" : "s"} copied)`);
