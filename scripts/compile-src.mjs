// Compiles src/ to JavaScript with esbuild for `npm start` (see start.mjs, which runs this as a process of its
// own: esbuild's module keeps a worker thread and a service process running in whatever process loads it).
// Prints the output directory.
//
// The output is `.start-<hash>/` in the package root beside src/ (one .js per .ts at the same relative path,
// the other files copied), so every lookup relative to a module's own file resolves as from src/ or dist/
// (see build.mjs). The hash covers the sources, this script and esbuild's version: an unchanged checkout
// starts from the build it already has. A build is made under a temporary name and renamed into place, so
// two starts at once never see half of one. The newest few builds are kept (a running app starts its
// worker and database processes from its own later), older ones removed.
//
// No type check (as under tsx): `npm run typecheck`. Each compiled file has a source map beside it
// (NODE_OPTIONS=--enable-source-maps maps stack traces back to src/).
import { buildSync, version as esbuildVersion } from "esbuild";
import { createHash } from "node:crypto";
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const KEEP = 3;
const PREFIX = ".start-";
const DRAFT = ".draft-";
/** A draft this old was left by a start killed while compiling. */
const ABANDONED_MS = 10 * 60_000;
const root = dirname(dirname(fileURLToPath(import.meta.url)));
const src = join(root, "src");

const files = readdirSync(src, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile())
  .map((entry) => join(entry.parentPath, entry.name))
  .sort();
const hash = createHash("sha256")
  .update(`esbuild ${esbuildVersion}\0`)
  .update(readFileSync(fileURLToPath(import.meta.url)));
for (const file of files) hash.update(`\0${relative(src, file)}\0`).update(readFileSync(file));
const out = join(root, `${PREFIX}${hash.digest("hex").slice(0, 12)}`);

if (!existsSync(join(out, "index.js"))) {
  const draft = `${out}${DRAFT}${process.pid}`;
  rmSync(draft, { recursive: true, force: true });
  buildSync({
    entryPoints: files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts")),
    outdir: draft,
    outbase: src,
    format: "esm",
    platform: "node",
    target: "node20",
    sourcemap: "linked",
    logLevel: "warning",
  });
  for (const file of files.filter((f) => !f.endsWith(".ts"))) cpSync(file, join(draft, relative(src, file)));
  try {
    renameSync(draft, out);
  } catch (error) {
    rmSync(draft, { recursive: true, force: true });
    if (!existsSync(join(out, "index.js"))) throw error; // else another start made the same build meanwhile
  }
}

const entries = readdirSync(root).filter((name) => name.startsWith(PREFIX));
for (const name of entries.filter((n) => n.includes(DRAFT)))
  if (Date.now() - statSync(join(root, name)).mtimeMs > ABANDONED_MS)
    rmSync(join(root, name), { recursive: true, force: true });
const builds = entries
  .filter((name) => !name.includes(DRAFT))
  .map((name) => ({ path: join(root, name), at: statSync(join(root, name)).mtimeMs }))
  .sort((a, b) => b.at - a.at);
for (const old of builds.slice(KEEP)) if (old.path !== out) rmSync(old.path, { recursive: true, force: true });

process.stdout.write(`${out}\n`);
