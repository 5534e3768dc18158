import { existsSync, mkdirSync, rmSync, statfsSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { writeErrorReason } from "./write-error-reason.js";

/**
 * Filesystems the kernel makes up as they are read (statfs `f_type`, from linux/magic.h): nothing written
 * there is kept, and a mkdir in them can answer ENOENT, which Node's recursive mkdir takes for a missing
 * parent and retries forever.
 */
const PSEUDO_FILESYSTEMS = new Map<number, string>([
  [0x9fa0, "proc"],
  [0x62656572, "sysfs"],
  [0x1cd1, "devpts"],
  [0x27e0eb, "cgroup"],
  [0x63677270, "cgroup2"],
  [0x64626720, "debugfs"],
  [0x74726163, "tracefs"],
  [0x73636673, "securityfs"],
  [0x62656570, "configfs"],
  [0x6165676c, "pstore"],
  [0xcafe4a11, "bpf"],
  [0xde5e81e4, "efivarfs"],
  [0x42494e4d, "binfmt_misc"],
  [0x65735543, "fusectl"],
  [0x19800202, "mqueue"],
]);

/**
 * Why DATA_DIR cannot hold the app's files (the embedded database, the webhook journal, agent homes), or
 * undefined when it can: it must not be on a pseudo filesystem, its missing folders are created one by
 * one, and a file is written and removed in it.
 */
export function dataDirProblem(dir: string): string | undefined {
  const path = resolve(dir);
  const existing = nearestExisting(path);
  const pseudo = pseudoFilesystemOf(existing);
  if (pseudo)
    return `DATA_DIR: "${path}" is on ${pseudo}, a filesystem the kernel makes up, where nothing can be stored; set DATA_DIR to a directory on a disk the app may write (the default is ./.data)`;
  const probe = join(path, `.write-probe-${process.pid}`);
  try {
    makeMissingFolders(existing, path);
    writeFileSync(probe, "");
    rmSync(probe);
    return undefined;
  } catch (error) {
    return `DATA_DIR: cannot create and write "${path}" (${writeErrorReason(error)}); set DATA_DIR to a directory the app may write, or fix its owner`;
  }
}

/** `path` itself, or its nearest ancestor that exists (`/` at worst). */
function nearestExisting(path: string): string {
  let at = path;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  return at;
}

function pseudoFilesystemOf(path: string): string | undefined {
  try {
    return PSEUDO_FILESYSTEMS.get(statfsSync(path).type);
  } catch {
    return undefined; // not readable: the mkdir or the write below says why
  }
}

/**
 * The folders from below `existing` down to `path`, each made once: a mkdir that fails is the answer, never
 * a reason to try again (unlike `mkdirSync(path, { recursive: true })`).
 */
function makeMissingFolders(existing: string, path: string): void {
  const missing: string[] = [];
  for (let at = path; at !== existing; at = dirname(at)) missing.unshift(at);
  for (const folder of missing) {
    try {
      mkdirSync(folder);
    } catch (error) {
      // made meanwhile by another process: fine when it is a folder
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || !statSync(folder).isDirectory()) throw error;
    }
  }
}
