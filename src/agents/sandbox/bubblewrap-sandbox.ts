import { accessSync, constants, existsSync, lstatSync, readlinkSync, realpathSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { AgentError, toAgentError } from "../agent-error.js";
import { runAgentProcess } from "../process/run-agent-process.js";
import type { AgentSandbox, SandboxedCall, SandboxedResult } from "./agent-sandbox.js";
import { bridgeArgv, type BridgeKind } from "./bridge-command.js";
import { bubblewrapArgs, ETC_FILES, SANDBOX_MODEL_PORT } from "./bubblewrap-args.js";
import type { ModelEndpoint } from "./model-route.js";
import { startModelProxy } from "./model-proxy.js";
import { limitedCommand } from "./limited-command.js";
import { startTurnGuard } from "./turn-guard.js";
import { DEFAULT_TURN_LIMITS, type TurnLimits } from "./turn-limits.js";

/** The bridge script, run by node inside the sandbox. */
export const MODEL_BRIDGE_SCRIPT = fileURLToPath(new URL("./model-bridge.mjs", import.meta.url));
/** What the CLI is given as its key inside the sandbox: the proxy replaces it with the real one. */
export const SANDBOX_API_KEY_PLACEHOLDER = "sk-no-mistakes-sandbox-placeholder";

export interface BubblewrapSandboxOptions {
  /** The bwrap binary; default `bwrap` on the app's PATH. */
  bwrap?: string;
  /** Extra read-only paths every call gets (e.g. a CLI installed outside /usr and node_modules). */
  extraReadOnly?: string[];
  /** The model bridge inside the sandbox: socat when it is installed (fast), else node (see bridge-command). */
  bridge?: "socat" | "node";
  /** What each turn may use (processes, memory, file size, workspace growth); default DEFAULT_TURN_LIMITS. */
  limits?: TurnLimits;
  /** False: never make a per-turn cgroup, limit processes and memory from /proc alone (as on a host that offers none). */
  cgroups?: boolean;
}

/**
 * Runs every agent call inside bubblewrap (see bubblewrapArgs for what the agent sees), with the
 * model API reached through a per-call proxy that holds the key: the sandbox has no network, no
 * secret and no view of DATA_DIR, the app's files, $HOME or other processes.
 */
export class BubblewrapSandbox implements AgentSandbox {
  readonly kind = "bubblewrap" as const;
  readonly #bwrap: string | undefined;
  readonly #extra: string[];
  readonly #bridge: BridgeKind;
  readonly #limits: TurnLimits;
  readonly #cgroups: boolean;
  readonly #prlimit: string | undefined;

  constructor(options: BubblewrapSandboxOptions = {}) {
    this.#bwrap = options.bwrap ?? findOnPath("bwrap");
    this.#extra = options.extraReadOnly ?? [];
    const socat = options.bridge === "node" ? undefined : findOnPath("socat");
    if (options.bridge === "socat" && socat === undefined)
      throw new Error("socat is not installed (Debian/Ubuntu: apt-get install socat)");
    this.#limits = options.limits ?? DEFAULT_TURN_LIMITS;
    this.#cgroups = options.cgroups ?? true;
    this.#prlimit = findOnPath("prlimit");
    this.#bridge = socat ? { kind: "socat", socat: realpathSync(socat) } : { kind: "node", node: process.execPath };
  }

  /** Which model bridge the calls use. */
  get bridge(): BridgeKind["kind"] {
    return this.#bridge.kind;
  }

  modelEndpoint(real: ModelEndpoint): ModelEndpoint {
    return {
      baseUrl: `http://127.0.0.1:${SANDBOX_MODEL_PORT}`,
      apiKey: real.apiKey === undefined ? undefined : SANDBOX_API_KEY_PLACEHOLDER,
    };
  }

  /** The full bwrap argv of a call (its model socket at `socket`). */
  argv(call: SandboxedCall, socket: string): string[] {
    const options = bubblewrapArgs({
      workspace: call.workspace,
      writable: call.writable,
      hasGitDir: existsSync(join(call.workspace, ".git")),
      home: call.home,
      appFiles: call.appFiles,
      runtime: [...bridgeRuntime(this.#bridge), ...call.runtime, ...this.#extra].filter(outsideUsr),
      bridgeScript: MODEL_BRIDGE_SCRIPT,
      modelSocket: socket,
      rootLinks: rootLinks(),
      etc: ETC_FILES.filter((path) => existsSync(path)),
      tmpfsBytes: this.#limits.maxFileMb * 1024 * 1024,
    });
    return [...options, "--", ...bridgeArgv(this.#bridge, realCommand(call.command), call.args)];
  }

  async run(call: SandboxedCall): Promise<SandboxedResult> {
    const bwrap = this.#bwrap;
    if (bwrap === undefined)
      throw new AgentError(
        "spawn",
        "the agent sandbox could not start: bubblewrap (bwrap) is not installed — install it (Debian/Ubuntu: apt-get install bubblewrap) or set AGENT_SANDBOX=off",
      );
    if (call.command.includes("/") && !existsSync(call.command)) {
      throw new AgentError("spawn", `agent CLI ${call.command} could not be started: not found (ENOENT)`);
    }
    const runDir = await mkdtemp(join(tmpdir(), "nm-sandbox-"));
    const socket = join(runDir, "model.sock");
    const proxy = await startModelProxy(socket, call.model, call.budget);
    const guard = await startTurnGuard(
      this.#limits,
      call.writable ? [call.workspace, call.home] : [call.home],
      this.#cgroups,
    );
    try {
      const limited = limitedCommand(this.#limits, guard.procsFiles, this.#prlimit, bwrap, this.argv(call, socket));
      const result = await runAgentProcess({
        command: limited.command,
        args: limited.args,
        cwd: call.workspace,
        env: sandboxEnv(call.env),
        stdin: call.stdin,
        timeoutMs: call.timeoutMs,
        signal: guard.signal(call.signal),
        killGraceMs: call.killGraceMs,
        onSpawn: guard.watch,
      }).catch((error: unknown) => {
        const failure = toAgentError(error);
        if (failure.kind !== "spawn") throw failure;
        throw new AgentError(
          "spawn",
          `the agent sandbox could not start: ${failure.message} — install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap) or set AGENT_SANDBOX=off`,
          { cause: error },
        );
      });
      await guard.stop();
      if (guard.reason !== undefined) throw new AgentError("limit", `the agent turn was stopped: ${guard.reason}`);
      if (proxy.refused.length > 0)
        result.stderr += `\n[no-mistakes sandbox] refused model API calls: ${proxy.refused.slice(0, 5).join(", ")}`;
      return { ...result, metered: proxy.usage };
    } finally {
      await guard.remove();
      await proxy.close();
      await rm(runDir, { recursive: true, force: true });
    }
  }
}

/** The binary itself: links to it (node_modules/.bin) are not inside the sandbox. */
function realCommand(command: string): string {
  try {
    return command.includes("/") ? realpathSync(command) : command;
  } catch {
    return command; // missing: the bridge reports it
  }
}

/**
 * Inside, the CLI speaks plain HTTP to the bridge on loopback and has no other network: proxy settings
 * would send that connection elsewhere, and CA bundles only cost start-up time (node reads
 * NODE_EXTRA_CA_CERTS at every start, ~40 ms here). TLS to the model API is the app's, outside.
 */
const OUTSIDE_ONLY = /^(NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|HTTPS?_PROXY|NO_PROXY|ALL_PROXY)$/i;
function sandboxEnv(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !OUTSIDE_ONLY.test(name)));
}

/** The app's own PATH decides which bwrap runs (never the agent environment's). */
function findOnPath(name: string, path = process.env.PATH ?? ""): string | undefined {
  for (const dir of path.split(":")) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function outsideUsr(path: string): boolean {
  return path !== "/usr" && !path.startsWith("/usr/");
}

/**
 * node's install prefix (the node bridge, and CLIs that are node scripts such as codex's launcher)
 * and socat's folder when that is the bridge; nothing is added for what lives under /usr.
 */
function bridgeRuntime(bridge: BridgeKind): string[] {
  const node = dirname(dirname(realpathSync(process.execPath)));
  return bridge.kind === "socat" ? [node, dirname(bridge.socat)] : [node];
}

let cachedLinks: Map<string, string> | undefined;
function rootLinks(): Map<string, string> {
  if (cachedLinks) return cachedLinks;
  const links = new Map<string, string>();
  for (const name of ["bin", "sbin", "lib", "lib32", "lib64", "libx32"]) {
    try {
      if (lstatSync(`/${name}`).isSymbolicLink()) links.set(name, readlinkSync(`/${name}`));
    } catch {
      // not on this system
    }
  }
  cachedLinks = links;
  return links;
}
