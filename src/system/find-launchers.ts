import { readFileSync } from "node:fs";
import { processIdentity, type ProcessIdentity } from "./process-identity.js";

/** A process that started this one as a wrapper (`npm start`, tsx's CLI, the shell between them). */
export interface Launcher extends ProcessIdentity {
  command: string;
}

const NPM =
  /^(\S*\/)?(npm|npx|pnpm|yarn)(\s|$)|^\S*node\s+\S*\/(npm|npx|pnpm|yarn)(\.c?js)?(\s|$)|\/(npm|npx)-cli\.js(\s|$)/;
const TSX = /(^|\s|\/)tsx(\s|$)|\/tsx\/dist\/cli\.mjs(\s|$)/;
const SHELL_C = /^(\S*\/)?(sh|bash|dash)\s+-c(\s|$)/;

/**
 * The wrappers this process was started through, nearest first (see launcherChain); read from /proc, so
 * empty where there is none.
 */
export function findLaunchers(pid: number = process.pid): Launcher[] {
  const ancestors: { pid: number; command: string }[] = [];
  for (let current = parentOf(pid); current !== undefined && current > 1; current = parentOf(current)) {
    const command = commandOf(current);
    if (command === undefined) break;
    ancestors.push({ pid: current, command });
  }
  return launcherChain(ancestors).map((a) => ({ ...processIdentity(a.pid), command: a.command }));
}

/**
 * Of a process's ancestors (nearest first, with their command lines), the wrappers it was started
 * through: tsx's CLI and `sh -c`, up to and including the first `npm`/`npx`/`pnpm`/`yarn`. None when no
 * npm or tsx is among them: the app started by node itself, systemd, a container or a shell is not
 * watched (a `nohup` start outlives its shell, as it should).
 */
export function launcherChain<T extends { command: string }>(ancestors: T[]): T[] {
  const chain: T[] = [];
  for (const ancestor of ancestors) {
    const npm = NPM.test(ancestor.command);
    if (!npm && !TSX.test(ancestor.command) && !SHELL_C.test(ancestor.command)) break;
    chain.push(ancestor);
    if (npm) break;
  }
  // A shell alone, or a shell above tsx with no npm, is not a wrapper of ours: only up to the last npm/tsx.
  while (chain.length > 0 && SHELL_C.test(chain.at(-1)!.command)) chain.pop();
  return chain;
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined; // gone, or no /proc here
  }
}

function commandOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
  } catch {
    return undefined;
  }
}
