/**
 * How what an agent turn writes to its workspace and home is bounded: `enforced` by the kernel (the writable
 * paths are overlays whose upper layers live in a tmpfs of AGENT_MAX_WORKSPACE_MB), or `sampled` every 2 s
 * where this host cannot mount an overlay in a user namespace, with the reason.
 */
export type WorkspaceBound = { kind: "enforced" } | { kind: "sampled"; reason: string };
