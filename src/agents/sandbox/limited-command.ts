import type { TurnLimits } from "../../config/env/turn-limits.js";

/**
 * Joins the turn's cgroup (each cgroup.procs file given) before anything else runs, so nothing of
 * the turn forks outside it, then sets the rlimits and execs the rest.
 */
const JOIN_SCRIPT =
  'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; n=$((n-1)); done; exec "$@"';

/**
 * The command that runs `command args` under the turn's limits: file size and core dumps by rlimit
 * (prlimit, when installed; RLIMIT_NPROC is set too though it binds no root process), the rest by
 * the cgroup and the watchdog.
 */
export function limitedCommand(
  limits: TurnLimits,
  procsFiles: string[],
  prlimit: string | undefined,
  command: string,
  args: string[],
): { command: string; args: string[] } {
  const rlimits = prlimit
    ? [prlimit, `--fsize=${limits.maxFileMb * 1024 * 1024}`, "--core=0", `--nproc=${limits.maxProcesses}`, "--"]
    : [];
  return {
    command: "/bin/sh",
    args: ["-c", JOIN_SCRIPT, "nm-limits", String(procsFiles.length), ...procsFiles, ...rlimits, command, ...args],
  };
}
