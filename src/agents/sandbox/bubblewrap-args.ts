/**
 * The bubblewrap command line of one agent turn. The sandbox starts from an empty root and gets only:
 * the system runtime read-only (/usr and the merged-/usr links, a few files of /etc), the CLI's own
 * install read-only, the workspace (read-only for the reviewer; read-write for the fixer except its
 * .git, which stays read-only), the (run, role)'s agent home read-write (the app's own config files
 * in it read-only), a private /tmp, its own
 * /proc and /dev, and the bridge to the model proxy. Every namespace is new: no network but its own
 * loopback, no other process, no host IPC. It dies with the app.
 */

/** Where the bridge script and the sockets it bridges to appear inside the sandbox. */
export const SANDBOX_RUN_DIR = "/run/no-mistakes";
export const SANDBOX_BRIDGE = `${SANDBOX_RUN_DIR}/model-bridge.mjs`;
export const SANDBOX_MODEL_SOCKET = `${SANDBOX_RUN_DIR}/model.sock`;
export const SANDBOX_EGRESS_SOCKET = `${SANDBOX_RUN_DIR}/egress.sock`;
/** The loopback ports the bridges listen on inside the sandbox (the network namespace is private). */
export const SANDBOX_MODEL_PORT = 41_917;
export const SANDBOX_EGRESS_PORT = 41_918;

/** Top-level links of a merged-/usr system, recreated as links (bound when they are real dirs). */
const USR_LINKS = ["bin", "sbin", "lib", "lib32", "lib64", "libx32"];

/** What a CLI needs of /etc: name lookups, the dynamic linker cache, certificates, time zone. Nothing secret (no shadow, no ssh). */
export const ETC_FILES = [
  "/etc/passwd",
  "/etc/group",
  "/etc/hosts",
  "/etc/nsswitch.conf",
  "/etc/host.conf",
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/localtime",
  "/etc/timezone",
  "/etc/ssl",
  "/etc/ca-certificates",
  "/etc/alternatives",
  "/etc/mime.types",
];

export interface BubblewrapMounts {
  /** The workspace; the agent's cwd. */
  workspace: string;
  /** True for the fixer: the tree is writable, its .git is not. */
  writable: boolean;
  /** Whether `<workspace>/.git` exists (it is then bound read-only over the writable tree). */
  hasGitDir: boolean;
  /** This (run, role)'s agent home, read-write. */
  home: string;
  /** App-owned files bound read-only over their place in the home (after it). */
  appFiles?: readonly { source: string; target: string }[];
  /** Read-only paths the CLI needs outside /usr (its package, node's prefix). */
  runtime: readonly string[];
  /** The node bridge's script, when node is the bridge and there is something to bridge to. */
  bridgeScript?: string | undefined;
  /** Unix sockets the app serves the sandbox on (the model proxy, an egress proxy): host path → path inside. */
  sockets: readonly { host: string; inside: string }[];
  /** Top-level entries of / that are symbolic links, with their targets (merged /usr). */
  rootLinks: ReadonlyMap<string, string>;
  /** Which of ETC_FILES exist on this host. */
  etc: readonly string[];
  /** The size of each of the sandbox's tmpfs mounts (/tmp, /var/tmp), in bytes: their files live in memory. */
  tmpfsBytes?: number | undefined;
  /**
   * In a layered turn (see outerBubblewrapArgs), where the writable workspace, its .git and the home come
   * from (the overlays' merged views and the real .git), and the uid and gid the agent runs as.
   */
  layered?: { workspace: string; gitDir: string; home: string; uid: number; gid: number } | undefined;
  /**
   * Paths in the workspace or home the CLI would read by itself whatever its settings say (a PR's instruction
   * file, its plugin folder): a file is shown as `emptyFile` (read-only), a folder as an empty read-only one.
   */
  hidden?: readonly { path: string; kind: "file" | "dir" }[];
  /** Where the workspace appears inside (default: its own path, which the CLIs key their sessions by). */
  mountAt?: string | undefined;
  /** A host file of no bytes that stands in for hidden files. */
  emptyFile?: string;
}

/** bwrap's options (everything before the command). */
export function bubblewrapArgs(m: BubblewrapMounts): string[] {
  const args = ["--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL"];
  const layered = m.layered;
  const inside = m.mountAt ?? m.workspace;
  if (layered) args.push("--uid", String(layered.uid), "--gid", String(layered.gid));
  args.push(...systemArgs(m));
  for (const dir of ["/tmp", "/var/tmp"]) {
    if (m.tmpfsBytes !== undefined) args.push("--size", String(m.tmpfsBytes));
    args.push("--tmpfs", dir);
  }
  for (const path of m.runtime) args.push("--ro-bind", path, path);
  args.push("--bind", layered?.home ?? m.home, m.home);
  for (const file of m.appFiles ?? []) args.push("--ro-bind", file.source, file.target);
  if (m.writable) {
    args.push("--bind", layered?.workspace ?? m.workspace, inside);
    if (m.hasGitDir) args.push("--ro-bind", layered?.gitDir ?? `${m.workspace}/.git`, `${inside}/.git`);
  } else {
    args.push("--ro-bind", m.workspace, inside);
  }
  for (const { path, kind } of m.hidden ?? []) {
    if (kind === "file" && m.emptyFile !== undefined) args.push("--ro-bind", m.emptyFile, path);
    else if (kind === "dir") args.push("--tmpfs", path, "--remount-ro", path);
  }
  if (m.sockets.length > 0) {
    args.push("--dir", SANDBOX_RUN_DIR);
    if (m.bridgeScript !== undefined) args.push("--ro-bind", m.bridgeScript, SANDBOX_BRIDGE);
    for (const socket of m.sockets) args.push("--bind", socket.host, socket.inside);
  }
  args.push("--setenv", "TMPDIR", "/tmp", "--chdir", inside);
  return args;
}

/** The system runtime, read-only: /usr, the merged-/usr links, the few files of /etc, and a /proc and /dev of its own. */
function systemArgs(m: Pick<BubblewrapMounts, "rootLinks" | "etc">): string[] {
  const args = ["--ro-bind", "/usr", "/usr"];
  for (const name of USR_LINKS) {
    const target = m.rootLinks.get(name);
    if (target !== undefined) args.push("--symlink", target, `/${name}`);
    else args.push("--ro-bind-try", `/${name}`, `/${name}`);
  }
  for (const path of m.etc) args.push("--ro-bind", path, path);
  args.push("--proc", "/proc", "--dev", "/dev");
  return args;
}

/** Where a layered turn's outer sandbox keeps its parts (turn-supervisor.sh knows them too); the agent sees none. */
export const LAYER_DIR = "/run/nm-turn";
export const LAYER_SUPERVISOR = `${LAYER_DIR}/turn-supervisor.sh`;
export const LAYER_APPLY = `${LAYER_DIR}/layer-apply.mjs`;
export const LAYER_STATUS_DIR = `${LAYER_DIR}/status`;

/** One writable path of a layered turn: its real tree and the agent's merged view of it, in the outer sandbox. */
export function layerPaths(name: "workspace" | "home"): { lower: string; merged: string } {
  return { lower: `${LAYER_DIR}/lower/${name}`, merged: `${LAYER_DIR}/merged/${name}` };
}

export interface OuterMounts extends Pick<BubblewrapMounts, "rootLinks" | "etc" | "runtime" | "writable"> {
  workspace: string;
  home: string;
  /** Host paths the inner sandbox binds (bridge script, app files): read-only here at the same path. */
  readOnly: readonly string[];
  /** The sockets the inner sandbox binds, at the same path. */
  sockets: readonly string[];
  /** Host folders stacked read-only over the workspace in the agent's view, topmost first. */
  layers?: readonly string[];
  /** A host folder the workspace's new and changed files are saved to when the turn ends within its limits. */
  saveDir?: string | undefined;
  /** The host paths of turn-supervisor.sh and layer-apply.mjs. */
  supervisor: string;
  apply: string;
  /** A host directory for the supervisor's status file. */
  statusDir: string;
  /** The size of the tmpfs that holds everything the turn writes to its workspace and home. */
  upperBytes: number;
}

/**
 * The outer sandbox of a layered turn: the same namespaces, root of its own user namespace (so it may mount
 * overlays and then start the agent's sandbox inside), with the real writable paths under LAYER_DIR and a
 * tmpfs of `upperBytes` for the overlays' upper layers. Only turn-supervisor.sh (and layer-apply.mjs) run here.
 */
export function outerBubblewrapArgs(o: OuterMounts): string[] {
  const args = ["--unshare-all", "--die-with-parent", "--new-session", "--uid", "0", "--gid", "0", "--cap-add", "ALL"];
  args.push(...systemArgs(o), "--tmpfs", "/tmp", "--dir", LAYER_DIR);
  for (const path of new Set([...o.runtime, ...o.readOnly])) args.push("--ro-bind", path, path);
  for (const socket of o.sockets) args.push("--bind", socket, socket);
  args.push("--size", String(o.upperBytes), "--tmpfs", `${LAYER_DIR}/upper`);
  if (o.writable)
    args.push("--bind", o.workspace, layerPaths("workspace").lower, "--dir", layerPaths("workspace").merged);
  else args.push("--ro-bind", o.workspace, o.workspace);
  args.push("--bind", o.home, layerPaths("home").lower, "--dir", layerPaths("home").merged);
  (o.layers ?? []).forEach((dir, i) => args.push("--ro-bind", dir, `${LAYER_DIR}/layers/${i}`));
  if (o.saveDir !== undefined) args.push("--bind", o.saveDir, `${LAYER_DIR}/save`);
  args.push("--ro-bind", o.supervisor, LAYER_SUPERVISOR, "--ro-bind", o.apply, LAYER_APPLY);
  args.push("--bind", o.statusDir, LAYER_STATUS_DIR);
  return args;
}
