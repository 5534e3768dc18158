import type { ProcessRss } from "./process-tree-rss.js";

/** What a process of the app's tree is, from its command line. */
export type TreeRole = "npm" | "shell" | "app" | "worker" | "database" | "git launcher" | "other";

const ROLES: [TreeRole, RegExp][] = [
  ["database", /pglite-server-process\.mjs/],
  ["worker", /worker-process\.(js|ts)(\s|$)/],
  ["git launcher", /launcher-process\.mjs/],
  ["app", /scripts\/start\.mjs|(dist|src)\/index\.(js|ts)(\s|$)/],
  ["npm", /(^|\/)npm(-cli\.js)?(\s|$)/],
  ["shell", /^(\S*\/)?(sh|bash|dash)\s+-c(\s|$)/],
];

export function roleOf(command: string): TreeRole {
  return ROLES.find(([, pattern]) => pattern.test(command))?.[0] ?? "other";
}

/** MiB per role (processes of one role summed), in a fixed order. */
export function rssByRole(processes: ProcessRss[]): Partial<Record<TreeRole, number>> {
  const sums: Partial<Record<TreeRole, number>> = {};
  for (const p of processes) {
    const role = roleOf(p.command);
    sums[role] = Math.round(((sums[role] ?? 0) + p.rssMiB) * 10) / 10;
  }
  return sums;
}
