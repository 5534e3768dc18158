import { SANDBOX_BRIDGE } from "./bubblewrap-args.js";

/**
 * How the sandbox reaches what the app serves it on unix sockets (the model proxy, the egress proxy of a
 * setup): something inside must listen on the sandbox's loopback and pass each connection to its socket,
 * before the command starts.
 * - `socat` (Debian's socat): started in the background, the command is exec'd as soon as every port is in
 *   LISTEN state in the sandbox's own /proc/net/tcp. A few milliseconds.
 * - `node`: model-bridge.mjs listens, then spawns the command. Needs no extra package; one node start
 *   (~50 ms on a small machine) per call.
 */
export type BridgeKind = { kind: "socat"; socat: string } | { kind: "node"; node: string };

/** One loopback port inside the sandbox and the unix socket (as bound inside) it leads to. */
export interface Bridge {
  port: number;
  socket: string;
}

/** The port as it appears in /proc/net/tcp (`0100007F:A3BD`): upper-case hex, four digits. */
function hexPort(port: number): string {
  return port.toString(16).toUpperCase().padStart(4, "0");
}

/** Starts socat for each bridge, waits at most ~4 s for all to listen; stops at once if one died. */
function socatScript(bridges: readonly Bridge[]): string {
  const lines = bridges.flatMap((b, i) => [
    `"$1" TCP-LISTEN:${b.port},bind=127.0.0.1,reuseaddr,fork UNIX-CONNECT:${b.socket} &`,
    `bridge${i}=$!`,
  ]);
  const ports = bridges.map((b) => `:${hexPort(b.port)} 00000000:0000 0A`);
  const alive = bridges.map((_, i) => `kill -0 "$bridge${i}" 2>/dev/null`).join(" && ");
  return [
    ...lines,
    "shift",
    "n=0",
    `until ${ports.map((p) => `grep -q "${p}" /proc/net/tcp`).join(" && ")}; do`,
    `  ${alive} || { echo "no-mistakes sandbox: a bridge (socat) did not start" >&2; exit 127; }`,
    "  n=$((n + 1))",
    '  [ "$n" -lt 2000 ] || { echo "no-mistakes sandbox: a bridge (socat) did not listen within 4 s" >&2; exit 127; }',
    "  sleep 0.002",
    "done",
    'exec "$@"',
  ].join("\n");
}

/** The argv run inside the sandbox: the bridges, then `command args…` (its stdin is the command's). */
export function bridgeArgv(
  bridge: BridgeKind,
  bridges: readonly Bridge[],
  command: string,
  args: readonly string[],
): string[] {
  if (bridges.length === 0) return [command, ...args];
  if (bridge.kind === "socat")
    return ["/bin/sh", "-c", socatScript(bridges), "bridges", bridge.socat, command, ...args];
  const pairs = bridges.map((b) => `${b.port}=${b.socket}`).join(",");
  return [bridge.node, SANDBOX_BRIDGE, pairs, command, ...args];
}
