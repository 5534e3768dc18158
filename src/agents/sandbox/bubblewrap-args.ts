/**
 * The bubblewrap command line of one agent turn. The sandbox starts from an empty root and gets only:
 * the system runtime read-only (/usr and the merged-/usr links, a few files of /etc), the CLI's own
 * install read-only, the workspace (read-only for the reviewer; read-write for the fixer except its
 * .git, which stays read-only), the (run, role)'s agent home read-write (the app's own config files
 * in it read-only), a private /tmp, its own
 * /proc and /dev, and the bridge to the model proxy. Every namespace is new: no network but its own
 * loopback, no other process, no host IPC. It dies with the app.
 */

/** Where the bridge script and the model socket appear inside the sandbox. */
export const SANDBOX_RUN_DIR = "/run/no-mistakes";
export const SANDBOX_BRIDGE = `${SANDBOX_RUN_DIR}/model-bridge.mjs`;
export const SANDBOX_MODEL_SOCKET = `${SANDBOX_RUN_DIR}/model.sock`;
/** The loopback port the bridge listens on inside the sandbox (the network namespace is private). */
export const SANDBOX_MODEL_PORT = 41_917;

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
  /** Host paths for the model bridge: the script and the proxy's socket. */
  bridgeScript: string;
  modelSocket: string;
  /** Top-level entries of / that are symbolic links, with their targets (merged /usr). */
  rootLinks: ReadonlyMap<string, string>;
  /** Which of ETC_FILES exist on this host. */
  etc: readonly string[];
  /** The size of each of the sandbox's tmpfs mounts (/tmp, /var/tmp), in bytes: their files live in memory. */
  tmpfsBytes?: number | undefined;
}

/** bwrap's options (everything before the command). */
export function bubblewrapArgs(m: BubblewrapMounts): string[] {
  const args = ["--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL"];
  args.push("--ro-bind", "/usr", "/usr");
  for (const name of USR_LINKS) {
    const target = m.rootLinks.get(name);
    if (target !== undefined) args.push("--symlink", target, `/${name}`);
    else args.push("--ro-bind-try", `/${name}`, `/${name}`);
  }
  for (const path of m.etc) args.push("--ro-bind", path, path);
  args.push("--proc", "/proc", "--dev", "/dev");
  for (const dir of ["/tmp", "/var/tmp"]) {
    if (m.tmpfsBytes !== undefined) args.push("--size", String(m.tmpfsBytes));
    args.push("--tmpfs", dir);
  }
  for (const path of m.runtime) args.push("--ro-bind", path, path);
  args.push("--bind", m.home, m.home);
  for (const file of m.appFiles ?? []) args.push("--ro-bind", file.source, file.target);
  if (m.writable) {
    args.push("--bind", m.workspace, m.workspace);
    if (m.hasGitDir) args.push("--ro-bind", `${m.workspace}/.git`, `${m.workspace}/.git`);
  } else {
    args.push("--ro-bind", m.workspace, m.workspace);
  }
  args.push(
    "--dir",
    SANDBOX_RUN_DIR,
    "--ro-bind",
    m.bridgeScript,
    SANDBOX_BRIDGE,
    "--bind",
    m.modelSocket,
    SANDBOX_MODEL_SOCKET,
  );
  args.push("--setenv", "TMPDIR", "/tmp", "--chdir", m.workspace);
  return args;
}
