import { runAgentProcess, type AgentProcessResult } from "../process/run-agent-process.js";
import type { AgentSandbox, SandboxedCall } from "./agent-sandbox.js";
import type { ModelEndpoint } from "./model-route.js";

/**
 * No sandbox (AGENT_SANDBOX=off): the CLI runs as a plain child process with the real model key,
 * confined only by its own tool settings. For machines that cannot run bubblewrap, by explicit choice.
 */
export class UnconfinedSandbox implements AgentSandbox {
  readonly kind = "off" as const;

  modelEndpoint(real: ModelEndpoint): ModelEndpoint {
    return real;
  }

  run(call: SandboxedCall): Promise<AgentProcessResult> {
    return runAgentProcess({
      command: call.command,
      args: call.args,
      cwd: call.workspace,
      env: call.env,
      stdin: call.stdin,
      timeoutMs: call.timeoutMs,
      signal: call.signal,
      killGraceMs: call.killGraceMs,
    });
  }
}
