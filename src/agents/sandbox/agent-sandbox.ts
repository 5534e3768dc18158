import type { AppFile } from "./agent-home-files.js";
import type { WorkspaceBound } from "./workspace-bound.js";
import type { AgentProcessResult } from "../process/run-agent-process.js";
import type { MeterReport, ModelBudget } from "./model-meter.js";
import type { ModelEndpoint, ModelRoute } from "./model-route.js";

/** One agent CLI call, with what it may see. */
export interface SandboxedCall {
  command: string;
  args: string[];
  /** The run's workspace; also the CLI's cwd. */
  workspace: string;
  /** Where the workspace appears inside the sandbox (default: its own path): a scratch run's fixed `/workspace`. */
  mountAt?: string;
  /** Read-write for the fixer, read-only for the reviewer. */
  writable: boolean;
  /** This (run, role)'s agent home (CLI config, transcripts), read-write. */
  home: string;
  /** The app's own files in the home (CLI config): bound read-only over their place there, so the agent cannot change them. */
  appFiles?: readonly AppFile[];
  /**
   * Paths in the workspace or home the CLI reads by itself, whatever its settings say (a PR's `GEMINI.md`, its
   * `.opencode/plugin/`): shown to it empty. Links and missing paths are left as they are (a PR's links are
   * checked out as plain files).
   */
  hidden?: readonly string[];
  /** Read-only paths the CLI needs besides the system's runtime (its own install). */
  runtime: string[];
  /** The CLI's complete environment (already allowlisted). */
  env: Record<string, string>;
  stdin: string;
  timeoutMs: number;
  signal?: AbortSignal;
  killGraceMs?: number;
  /** Where the model API really is, and with which key; absent: no model is reachable (the PR's own commands). */
  model?: ModelRoute;
  /**
   * An egress proxy's unix socket (a setup's): inside, HTTP(S)_PROXY lead to it, and it lets through only
   * the package registries the operator allows. Absent: no network at all.
   */
  egress?: string;
  /** The workspace's changes are thrown away when the call ends, whatever happens (needs a layered sandbox). */
  discard?: boolean;
  /** Host folders stacked read-only over the workspace in the call's view, topmost first (needs a layered sandbox). */
  layers?: readonly string[];
  /** When the call ends within its limits: the workspace's new and changed files are saved into this host folder. */
  saveTo?: string;
  /** What the call may still spend under the PR's limits; the proxy stops forwarding once it is spent. */
  budget?: ModelBudget;
}

/** A call's process result, with what the model proxy measured (absent without a proxy: AGENT_SANDBOX=off). */
export interface SandboxedResult extends AgentProcessResult {
  metered?: MeterReport;
}

/**
 * Where agent processes run. `bubblewrap` confines each call to its own workspace and home with
 * the OS's namespaces; `off` runs the CLI as a plain child (the operator's explicit opt-out).
 */
export interface AgentSandbox {
  readonly kind: "bubblewrap" | "off";
  /**
   * How what a turn writes to its workspace and home is bounded (bubblewrap, once a call has run): refused by
   * the kernel past AGENT_MAX_WORKSPACE_MB, or measured every 2 s where the host cannot layer a turn.
   */
  readonly workspaceBound?: WorkspaceBound | undefined;
  /** The base URL and key the CLI is given for its model API (inside a sandbox: the bridge and a placeholder). */
  modelEndpoint(real: ModelEndpoint): ModelEndpoint;
  run(call: SandboxedCall): Promise<SandboxedResult>;
}
