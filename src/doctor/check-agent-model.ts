import { modelSetting, type AgentModel } from "../agents/agent-model.js";
import { allowsModel, modelPolicyFor, type ModelApi } from "../agents/sandbox/model-policy.js";
import type { Agent } from "../agents/types.js";
import { fail, pass, type DoctorCheck } from "./doctor-check.js";

/** The line, and the id the CLI sends (for the key check to ask the provider about), when it is known. */
export interface AgentModelCheck {
  check: DoctorCheck;
  model?: AgentModel;
}

/**
 * The model id the agent's CLI will send for AGENT_MODEL (the CLI asked, as before a turn), and whether
 * the model proxy lets it through — before any turn runs. Undefined for an agent that asks no model.
 */
export async function checkAgentModel(
  agent: Agent,
  sandbox: "bubblewrap" | "off",
): Promise<AgentModelCheck | undefined> {
  if (!agent.resolveModel) return undefined;
  const name = `${agent.name} model`;
  let model: AgentModel;
  try {
    model = await agent.resolveModel();
  } catch (error) {
    return {
      check: fail(name, (error as Error).message, "check AGENT_CLI (the CLI must start), AGENT_ARGS and AGENT_MODEL"),
    };
  }
  const sends = `${agent.name} sends ${model.sent} for ${modelSetting(model)}`;
  if (sandbox === "off") return { check: pass(name, `${sends} (AGENT_SANDBOX=off: no model proxy)`), model };
  const policy = modelPolicyFor(apiOf(agent.name), model, {});
  if (!allowsModel(policy, model.sent))
    return {
      check: fail(
        name,
        `${sends}, which the model proxy refuses (it allows ${policy.models.join(", ")})`,
        "set AGENT_MODEL to the id sent",
      ),
      model,
    };
  return { check: pass(name, `${sends}; the model proxy allows it`), model };
}

/** The model API an agent's CLI speaks (and the provider whose key the doctor checks). */
export function apiOf(agent: string): Exclude<ModelApi, "openai-chat"> {
  if (agent === "codex") return "openai";
  if (agent === "gemini") return "gemini";
  return "anthropic";
}
