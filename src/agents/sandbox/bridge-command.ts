import { SANDBOX_BRIDGE, SANDBOX_MODEL_PORT, SANDBOX_MODEL_SOCKET } from "./bubblewrap-args.js";

/**
 * How the sandbox reaches the model proxy: something inside must listen on the sandbox's loopback
 * and pass each connection to the proxy's unix socket, before the CLI starts.
 * - `socat` (Debian's socat): started in the background, the CLI is exec'd as soon as the port is in
 *   LISTEN state in the sandbox's own /proc/net/tcp. A few milliseconds.
 * - `node`: model-bridge.mjs listens, then spawns the CLI. Needs no extra package; one node start
 *   (~50 ms on a small machine) per call.
 */
export type BridgeKind = { kind: "socat"; socat: string } | { kind: "node"; node: string };

/** The port as it appears in /proc/net/tcp (`0100007F:A3BD`): upper-case hex, four digits. */
const HEX_PORT = SANDBOX_MODEL_PORT.toString(16).toUpperCase().padStart(4, "0");

/** Waits at most ~4 s for socat to listen; stops at once if socat died. */
const SOCAT_SCRIPT = [
  `"$1" TCP-LISTEN:${SANDBOX_MODEL_PORT},bind=127.0.0.1,reuseaddr,fork UNIX-CONNECT:${SANDBOX_MODEL_SOCKET} &`,
  "bridge=$!",
  "shift",
  "n=0",
  `until grep -q ":${HEX_PORT} 00000000:0000 0A" /proc/net/tcp; do`,
  '  kill -0 "$bridge" 2>/dev/null || { echo "no-mistakes sandbox: the model bridge (socat) did not start" >&2; exit 127; }',
  "  n=$((n + 1))",
  '  [ "$n" -lt 2000 ] || { echo "no-mistakes sandbox: the model bridge (socat) did not listen within 4 s" >&2; exit 127; }',
  "  sleep 0.002",
  "done",
  'exec "$@"',
].join("\n");

/** The argv run inside the sandbox: the bridge, then `command args…` (its stdin is the CLI's). */
export function bridgeArgv(bridge: BridgeKind, command: string, args: readonly string[]): string[] {
  if (bridge.kind === "socat") return ["/bin/sh", "-c", SOCAT_SCRIPT, "model-bridge", bridge.socat, command, ...args];
  return [bridge.node, SANDBOX_BRIDGE, String(SANDBOX_MODEL_PORT), SANDBOX_MODEL_SOCKET, command, ...args];
}
