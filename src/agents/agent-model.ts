/**
 * The model an agent's turns run, by both of its names: the one the operator configured, and the id
 * the CLI actually puts in its model requests for it (Claude Code sends a newer model for some names).
 * The model proxy lets both through; prices and refusals use the id sent.
 */
export interface AgentModel {
  /** AGENT_MODEL, or the adapter's default when it names none. */
  configured: string;
  /** True when AGENT_MODEL named none and `configured` is the adapter's default. */
  isDefault: boolean;
  /** The `model` of the CLI's requests for `configured`, learnt from the CLI itself. */
  sent: string;
}

/** How a refusal names the configured model: `AGENT_MODEL=claude-opus-4-1`, or the default. */
export function modelSetting(model: AgentModel): string {
  return model.isDefault ? `AGENT_MODEL unset, default ${model.configured}` : `AGENT_MODEL=${model.configured}`;
}
