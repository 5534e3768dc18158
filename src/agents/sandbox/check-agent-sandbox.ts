import type { Logger } from "pino";
import type { AgentSandbox } from "./agent-sandbox.js";
import { probeSandbox } from "./probe-sandbox.js";
import type { EnvConfig } from "../../config/env/env-config.js";
import { ConfigError } from "../../config/config-error.js";

/** What /health reports about agent confinement. */
export type SandboxStatus = "bubblewrap" | "off" | "not needed (fake agent)";

/** The docker run flags bubblewrap needs inside a container (and nothing more: no capability, no --privileged). */
export const DOCKER_SANDBOX_FLAGS =
  "--security-opt seccomp=unconfined --security-opt apparmor=unconfined --security-opt systempaths=unconfined";

/**
 * The start-up check: with a real agent, the sandbox must confine (probed by running a command
 * through it exactly as a turn would), or the app refuses to start and says how to fix it. The
 * operator's explicit AGENT_SANDBOX=off is allowed, with a warning at every start.
 */
export async function checkAgentSandbox(config: EnvConfig, sandbox: AgentSandbox, log: Logger): Promise<SandboxStatus> {
  if (config.agent.name === "fake") return "not needed (fake agent)";
  if (sandbox.kind === "off") {
    log.warn(
      { agent: config.agent.name },
      "AGENT_SANDBOX=off: agent CLIs run UNCONFINED — a pull request can make the agent read this machine's files (the .env, DATA_DIR) and hand them back in a review; use only for repositories whose pull requests you trust",
    );
    return "off";
  }
  const probe = await probeSandbox(sandbox);
  if (!probe.ok) {
    throw new ConfigError("The agent sandbox", [
      `bubblewrap cannot confine the agent here (${probe.reason}).`,
      "Agents read untrusted pull requests, so no-mistakes does not run them unconfined by default. Fix one of:",
      "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; the Docker image has it)",
      `in Docker, start the container with ${DOCKER_SANDBOX_FLAGS} (no capability and no --privileged needed)`,
      "or set AGENT_SANDBOX=off to run agents unconfined (only for repositories whose pull requests you trust)",
    ]);
  }
  const bound = sandbox.workspaceBound;
  if (bound?.kind === "sampled")
    log.warn(
      { reason: bound.reason },
      "this host cannot layer agent turns (an overlay in a user namespace): what a turn writes to its workspace and home is measured every 2 s, not refused at AGENT_MAX_WORKSPACE_MB",
    );
  log.info({ sandbox: "bubblewrap", probeMs: probe.ms, workspaceLimit: bound?.kind }, "agent sandbox ready");
  return "bubblewrap";
}
