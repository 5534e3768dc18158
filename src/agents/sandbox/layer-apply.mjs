// Runs INSIDE the outer layer of an agent turn's sandbox, after the agent has ended within its limits (see
// turn-supervisor.sh): copies what the agent changed in each writable path onto the real one. While the overlay
// is still mounted it plans — deletions read from the merged view (an entry of the real tree the agent's view
// no longer has), new and changed entries from the upper layer — then unmounts it and applies the plan, never
// following a link. Writes `applied <n>` or `apply <why>` to the status file.
// With --save, it instead copies an upper layer's new and changed files (deletions are not kept) into a folder:
// a setup's cache, stacked under later runs.
// Usage: node layer-apply.mjs <status file> <layer name>...
//        node layer-apply.mjs <status file> --save <upper dir> <folder>
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";

const DIR = "/run/nm-turn";
/** Top-level names of a layer that are never carried over: the workspace's .git is read-only to the agent. */
const KEEP = { workspace: [".git"], home: [] };

const [status, ...names] = process.argv.slice(2);
if (names[0] === "--save") {
  try {
    saveTree(names[1], names[2]);
  } catch (error) {
    writeFileSync(
      status,
      `apply ${String(error?.message ?? error)
        .replace(/\s+/g, " ")
        .slice(0, 2000)}\n`,
    );
    process.exit(1);
  }
  process.exit(0);
}
try {
  let changed = 0;
  for (const name of names) changed += applyLayer(name);
  writeFileSync(status, `applied ${changed}\n`);
} catch (error) {
  writeFileSync(
    status,
    `apply ${String(error?.message ?? error)
      .replace(/\s+/g, " ")
      .slice(0, 2000)}\n`,
  );
  process.exit(1);
}

function applyLayer(name) {
  const layer = {
    lower: `${DIR}/lower/${name}`,
    merged: `${DIR}/merged/${name}`,
    upper: `${DIR}/upper/${name}/upper`,
    keep: KEEP[name] ?? [],
  };
  const ops = [];
  planDir(layer, "", ops);
  const unmounted = spawnSync("umount", [layer.merged], { encoding: "utf8" });
  if (unmounted.status !== 0) throw new Error(`umount ${name}: ${unmounted.stderr || unmounted.error?.message}`);
  for (const op of ops) {
    const target = join(layer.lower, op.rel);
    rmSync(target, { recursive: true, force: true });
    if (op.kind !== "delete") copyEntry(join(layer.upper, op.rel), target);
  }
  return ops.length;
}

function planDir(layer, rel, ops) {
  const skip = (name) => rel === "" && layer.keep.includes(name);
  const seen = new Set(readdirSync(join(layer.merged, rel)));
  for (const name of readdirSync(join(layer.lower, rel))) {
    if (!seen.has(name) && !skip(name)) ops.push({ kind: "delete", rel: join(rel, name) });
  }
  for (const entry of readdirSync(join(layer.upper, rel), { withFileTypes: true })) {
    // A whiteout (not in the merged view) is a deletion, planned above.
    if (skip(entry.name) || !seen.has(entry.name)) continue;
    const path = join(rel, entry.name);
    if (entry.isDirectory()) {
      if (isDir(join(layer.lower, path))) planDir(layer, path, ops);
      else ops.push({ kind: "copy", rel: path });
    } else if (entry.isFile() || entry.isSymbolicLink()) {
      ops.push({ kind: "copy", rel: path });
    }
    // fifos and sockets are not carried over: nothing a commit or a session could hold
  }
}

function isDir(path) {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Every file, link and folder of an upper layer into `to`; whiteouts (deletions), fifos and sockets are left out. */
function saveTree(from, to) {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) {
      if (!isDir(target)) mkdirSync(target, { mode: 0o755 });
      saveTree(source, target);
    } else if (entry.isFile() || entry.isSymbolicLink()) {
      rmSync(target, { recursive: true, force: true });
      copyEntry(source, target);
    }
  }
}

/** Copies a file, a link or a whole directory from the upper layer, never following a link. */
function copyEntry(from, to) {
  const stat = lstatSync(from);
  if (stat.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
  else if (stat.isFile()) {
    copyFileSync(from, to);
    chmodSync(to, stat.mode & 0o7777);
  } else if (stat.isDirectory()) {
    mkdirSync(to, { mode: 0o700 });
    for (const name of readdirSync(from)) copyEntry(join(from, name), join(to, name));
    chmodSync(to, stat.mode & 0o7777);
  }
}
