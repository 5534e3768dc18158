import { accessSync, constants, existsSync, lstatSync, readlinkSync, realpathSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { AgentError, toAgentError } from "../agent-error.js";
import { runAgentProcess, type AgentProcessResult } from "../process/run-agent-process.js";
import type { AgentSandbox, SandboxedCall, SandboxedResult } from "./agent-sandbox.js";
import { bridgeArgv, type BridgeKind } from "./bridge-command.js";
import {
  bubblewrapArgs,
  ETC_FILES,
  LAYER_SUPERVISOR,
  layerPaths,
  outerBubblewrapArgs,
  SANDBOX_EGRESS_PORT,
  SANDBOX_EGRESS_SOCKET,
  SANDBOX_MODEL_PORT,
  SANDBOX_MODEL_SOCKET,
} from "./bubblewrap-args.js";
import type { ModelEndpoint } from "./model-route.js";
import { startModelProxy } from "./model-proxy.js";
import { limitedCommand } from "./limited-command.js";
import { startTurnGuard, type TurnGuard } from "./turn-guard.js";
import { DEFAULT_TURN_LIMITS, type TurnLimits } from "../../config/env/turn-limits.js";
import { limitReason } from "./limit-reason.js";
import type { WorkspaceBound } from "./workspace-bound.js";

/** The bridge script, run by node inside the sandbox. */
export const MODEL_BRIDGE_SCRIPT = fileURLToPath(new URL("./model-bridge.mjs", import.meta.url));
/** The scripts of a layered turn's outer sandbox (see turn-supervisor.sh). */
const TURN_SUPERVISOR_SCRIPT = fileURLToPath(new URL("./turn-supervisor.sh", import.meta.url));
const LAYER_APPLY_SCRIPT = fileURLToPath(new URL("./layer-apply.mjs", import.meta.url));
/** Room in the upper layers' tmpfs beyond the workspace limit, for the overlays' own entries. */
const UPPER_SLACK_BYTES = 1024 * 1024;
const MB = 1024 * 1024;

/** What a layered turn's supervisor reports: one line, `<what> <detail>`. */
interface LayerStatus {
  what: "limit" | "setup" | "apply" | "applied" | "discarded";
  detail: string;
}
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
  /** False: never layer a turn (its workspace growth is then sampled), as on a host that cannot mount an overlay. */
  layered?: boolean;
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
  #bound: WorkspaceBound | undefined;

  constructor(options: BubblewrapSandboxOptions = {}) {
    this.#bwrap = options.bwrap ?? findOnPath("bwrap");
    this.#extra = options.extraReadOnly ?? [];
    const socat = options.bridge === "node" ? undefined : findOnPath("socat");
    if (options.bridge === "socat" && socat === undefined)
      throw new Error("socat is not installed (Debian/Ubuntu: apt-get install socat)");
    this.#limits = options.limits ?? DEFAULT_TURN_LIMITS;
    this.#cgroups = options.cgroups ?? true;
    this.#prlimit = findOnPath("prlimit");
    if (options.layered === false) this.#bound = { kind: "sampled", reason: "layered turns are off" };
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

  /** How this sandbox bounds a turn's writes (known after its first writable call or the start-up probe). */
  get workspaceBound(): WorkspaceBound | undefined {
    return this.#bound;
  }

  /**
   * The full bwrap argv of a call, whose per-call files (its sockets, the empty file) are in `runDir`. Layered:
   * an outer sandbox whose supervisor mounts the writable paths as overlays and runs the agent's sandbox
   * inside it.
   */
  argv(call: SandboxedCall, runDir: string, layered: boolean): string[] {
    const sockets = callSockets(call, runDir);
    const useNodeBridge = this.#bridge.kind === "node" && sockets.length > 0;
    const runtime = [...bridgeRuntime(this.#bridge), ...call.runtime, ...this.#extra].filter(outsideUsr);
    const inner = bubblewrapArgs({
      workspace: call.workspace,
      writable: call.writable,
      hasGitDir: existsSync(join(call.workspace, ".git")),
      home: call.home,
      appFiles: call.appFiles,
      runtime,
      bridgeScript: useNodeBridge ? MODEL_BRIDGE_SCRIPT : undefined,
      sockets,
      rootLinks: rootLinks(),
      etc: ETC_FILES.filter((path) => existsSync(path)),
      tmpfsBytes: this.#limits.maxFileMb * MB,
      hidden: hiddenKinds(call.hidden ?? []),
      mountAt: call.mountAt,
      emptyFile: join(runDir, "empty"),
      layered: layered ? innerLayers() : undefined,
    });
    const bridges = sockets.map((socket) => ({ port: BRIDGE_PORTS[socket.inside]!, socket: socket.inside }));
    const agent = [...inner, "--", ...bridgeArgv(this.#bridge, bridges, realCommand(call.command), call.args)];
    if (!layered) return agent;
    const innerBwrap = realpathSync(this.#bwrap ?? "bwrap");
    const outer = outerBubblewrapArgs({
      workspace: call.workspace,
      home: call.home,
      writable: call.writable,
      runtime,
      readOnly: [
        ...(useNodeBridge ? [MODEL_BRIDGE_SCRIPT] : []),
        join(runDir, "empty"),
        ...(call.appFiles ?? []).map((file) => file.source),
        ...[dirname(innerBwrap)].filter(outsideUsr),
      ],
      sockets: sockets.map((socket) => socket.host),
      layers: call.layers,
      saveDir: call.saveTo,
      supervisor: TURN_SUPERVISOR_SCRIPT,
      apply: LAYER_APPLY_SCRIPT,
      statusDir: join(runDir, "status"),
      upperBytes: this.#limits.maxWorkspaceMb * MB + UPPER_SLACK_BYTES,
      rootLinks: rootLinks(),
      etc: ETC_FILES.filter((path) => existsSync(path)),
    });
    return [...outer, "--", ...this.#supervisorArgv(call), "--", innerBwrap, ...agent];
  }

  #supervisorArgv(call: SandboxedCall): string[] {
    return [
      "/bin/sh",
      LAYER_SUPERVISOR,
      String(this.#limits.maxWorkspaceMb * MB),
      String(this.#limits.maxFileMb * MB),
      process.execPath,
      call.writable ? "workspace,home" : "home",
      call.discard ? "discard" : "apply",
      String(call.layers?.length ?? 0),
    ];
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
    if (this.#bound?.kind === "sampled") return this.#runSampled(bwrap, call);
    const layered = await this.#runOnce(bwrap, call, true);
    if (!("setupFailed" in layered)) return layered;
    // Nothing of the turn ran: this host cannot layer a turn, so its writes are measured instead, from now on.
    this.#bound = { kind: "sampled", reason: layered.setupFailed };
    return this.#runSampled(bwrap, call);
  }

  async #runSampled(bwrap: string, call: SandboxedCall): Promise<SandboxedResult> {
    // a scratch run's changes are thrown away and its folders stacked by the layers alone: never without them
    if (call.discard || call.saveTo !== undefined || (call.layers?.length ?? 0) > 0)
      throw new AgentError(
        "spawn",
        `this host cannot layer a sandboxed run (${this.#bound?.kind === "sampled" ? this.#bound.reason : "unknown"})`,
      );
    const result = await this.#runOnce(bwrap, call, false);
    if ("setupFailed" in result) throw new AgentError("spawn", result.setupFailed);
    return result;
  }

  /** One call: layered, or with its writes sampled; a layered call whose outer sandbox could not be set up ran nothing. */
  async #runOnce(
    bwrap: string,
    call: SandboxedCall,
    layered: boolean,
  ): Promise<SandboxedResult | { setupFailed: string }> {
    const runDir = await mkdtemp(join(tmpdir(), "nm-sandbox-"));
    if (layered) await mkdir(join(runDir, "status"));
    await writeFile(join(runDir, "empty"), "", { mode: 0o444 });
    const proxy = call.model ? await startModelProxy(join(runDir, "model.sock"), call.model, call.budget) : undefined;
    const sampled = layered ? [] : call.writable ? [call.workspace, call.home] : [call.home];
    const guard = await startTurnGuard(this.#limits, sampled, this.#cgroups);
    try {
      const result = await this.#spawn(bwrap, call, runDir, layered, guard);
      await guard.stop();
      if (guard.reason !== undefined) throw new AgentError("limit", `the agent turn was stopped: ${guard.reason}`);
      if (layered) {
        const status = await readLayerStatus(runDir, result);
        if (status?.what === "setup") return { setupFailed: status.detail };
        if (status !== undefined) this.#bound = { kind: "enforced" };
        this.#throwForStatus(status);
      }
      if (proxy && proxy.refused.length > 0)
        result.stderr += `\n[no-mistakes sandbox] refused model API calls: ${proxy.refused.slice(0, 5).join(", ")}`;
      return proxy ? { ...result, metered: proxy.usage } : result;
    } finally {
      await guard.remove();
      await proxy?.close();
      await rm(runDir, { recursive: true, force: true });
    }
  }

  /** The call's process, under the turn's limits (cgroup, rlimits), with the environment the sandbox allows. */
  #spawn(
    bwrap: string,
    call: SandboxedCall,
    runDir: string,
    layered: boolean,
    guard: TurnGuard,
  ): Promise<AgentProcessResult> {
    const argv = this.argv(call, runDir, layered);
    const limited = limitedCommand(this.#limits, guard.procsFiles, this.#prlimit, bwrap, argv);
    return runAgentProcess({
      command: limited.command,
      args: limited.args,
      cwd: call.workspace,
      env: sandboxEnv(call),
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
  }

  #throwForStatus(status: LayerStatus | undefined): void {
    if (status?.what === "limit")
      throw new AgentError(
        "limit",
        `the agent turn was stopped: ${limitReason(status.detail as keyof TurnLimits, this.#limits)}`,
      );
    if (status?.what === "apply")
      throw new AgentError("other", `the agent's changes could not be carried out of the sandbox: ${status.detail}`);
  }
}

/** Where the sockets the app serves a call on live (in its run dir), and where they appear inside. */
function callSockets(call: SandboxedCall, runDir: string): { host: string; inside: string }[] {
  return [
    ...(call.model ? [{ host: join(runDir, "model.sock"), inside: SANDBOX_MODEL_SOCKET }] : []),
    ...(call.egress ? [{ host: call.egress, inside: SANDBOX_EGRESS_SOCKET }] : []),
  ];
}

/** The loopback port inside the sandbox that leads to each socket. */
const BRIDGE_PORTS: Record<string, number> = {
  [SANDBOX_MODEL_SOCKET]: SANDBOX_MODEL_PORT,
  [SANDBOX_EGRESS_SOCKET]: SANDBOX_EGRESS_PORT,
};

/** In a layered turn, where the agent's sandbox takes its writable paths from (see bubblewrapArgs). */
function innerLayers(): NonNullable<Parameters<typeof bubblewrapArgs>[0]["layered"]> {
  return {
    workspace: layerPaths("workspace").merged,
    gitDir: `${layerPaths("workspace").lower}/.git`,
    home: layerPaths("home").merged,
    uid: process.getuid?.() ?? 0,
    gid: process.getgid?.() ?? 0,
  };
}

/**
 * The supervisor's report. None when the turn was stopped from outside (a timeout or a cancel kills the whole
 * sandbox, and what the agent wrote is dropped with it). Without one, an outer sandbox that bwrap could not set
 * up (its own message, before anything ran) is a setup failure; anything else is an error, never a reason to
 * run the turn again.
 */
async function readLayerStatus(runDir: string, result: AgentProcessResult): Promise<LayerStatus | undefined> {
  const text = await readFile(join(runDir, "status", "status"), "utf8").catch(() => undefined);
  if (text !== undefined) {
    const [, what, detail] = /^(limit|setup|apply|applied|discarded) ?(.*)$/s.exec(text.trim()) ?? [];
    if (what !== undefined) return { what: what as LayerStatus["what"], detail: detail ?? "" };
  }
  if (result.timedOut || result.cancelled) return undefined;
  const bwrapSaid = /^bwrap: .*/m.exec(result.stderr)?.[0];
  if (text === undefined && result.exitCode === 1 && bwrapSaid !== undefined)
    return { what: "setup", detail: bwrapSaid };
  throw new AgentError(
    "other",
    `the agent's sandbox ended without its report (exit ${result.exitCode ?? result.signal}): ${result.stderr.trim().slice(-300)}`,
  );
}

/** Each hidden path that is a real file or folder now, with which (a link or a missing path is left alone). */
function hiddenKinds(paths: readonly string[]): { path: string; kind: "file" | "dir" }[] {
  return paths.flatMap((path): { path: string; kind: "file" | "dir" }[] => {
    try {
      const stat = lstatSync(path);
      if (stat.isDirectory()) return [{ path, kind: "dir" }];
      return stat.isFile() ? [{ path, kind: "file" }] : [];
    } catch {
      return [];
    }
  });
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
function sandboxEnv(call: SandboxedCall): Record<string, string> {
  const env = Object.fromEntries(Object.entries(call.env).filter(([name]) => !OUTSIDE_ONLY.test(name)));
  if (!call.egress) return env;
  // a setup reaches the registries it may only through the egress bridge: every client is pointed at it
  const proxy = `http://127.0.0.1:${SANDBOX_EGRESS_PORT}`;
  for (const name of ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"]) env[name] = proxy;
  return env;
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
