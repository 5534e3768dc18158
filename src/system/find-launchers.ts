import { readFileSync } from "node:fs";
import { processIdentity, type ProcessIdentity } from "./process-identity.js";

/** A process that started this one as a wrapper (`npm start`, tsx's CLI, the shell between them). */
export interface Launcher extends ProcessIdentity {
  command: string;
}

const NPM = /^(\S*\/)?(npm|npx|pnpm|yarn)(\s|$)|\/(npm|npx)-cli\.js(\s|$)/;
const TSX = /(^|\s|\/)tsx(\s|$)|\/tsx\/dist\/cli\.mjs(\s|$)/;
const SHELL_C = /^(\S*\/)?(sh|bash|dash)\s+-c(\s|$)/;

/**
 * The wrappers this process was started through, nearest first: walking up the parents while they are
 * tsx's CLI or a `sh -c`, up to and including the `npm`/`npx`/`pnpm`/`yarn` one. Empty when none of them
 * is npm or tsx: the app started by node itself, systemd, a container or a shell is not watched (a
 * `nohup` start outlives its shell, as it should). Linux only (/proc); empty elsewhere.
 */
export function findLaunchers(pid: number = process.pid): Launcher[] {
  const chain: Launcher[] = [];
  let current = parentOf(pid);
  while (current !== undefined && current > 1) {
    const command = commandOf(current);
    if (command === undefined) break;
    const npm = NPM.test(command);
    if (!npm && !TSX.test(command) && !SHELL_C.test(command)) break;
    chain.push({ ...processIdentity(current), command });
    if (npm) break;
    current = parentOf(current);
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
