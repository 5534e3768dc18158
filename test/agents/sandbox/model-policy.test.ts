import { describe, expect, it } from "vitest";
import { allowsModel, applyPolicy, modelPolicyFor, namesModel } from "../../../src/agents/sandbox/model-policy.js";

describe("namesModel: which request models an operator's AGENT_MODEL allows", () => {
  it.each([
    ["claude-sonnet-4-5", "claude-sonnet-4-5", true],
    ["claude-sonnet-4-5", "claude-sonnet-4-5-20250929", true],
    ["claude-sonnet-4-5", "claude-sonnet-4-5[1m]", true],
    ["claude-sonnet-4-5", "claude-sonnet-4-5-evil", false],
    ["claude-sonnet-4-5", "claude-opus-4-1", false],
    ["claude-haiku-4-5", "claude-haiku-4-5-20251001", true],
    ["sonnet", "claude-sonnet-4-5-20250929", true],
    ["sonnet", "claude-3-7-sonnet-20250219", true],
    ["sonnet", "claude-opus-4-1-20250805", false],
    ["opus", "claude-opus-4-1-20250805", true],
    ["opus", "claude-sonnet-4-5", false],
    ["haiku", "claude-3-5-haiku-20241022", true],
    ["opusplan", "claude-sonnet-4-5", true],
    ["gpt-5.5", "gpt-5.5", true],
    ["gpt-5.5", "gpt-5.5-pro", false],
    ["gpt-5.5", "o3", false],
    ["sonnet", "sonnet-but-not-claude", false],
  ])("allowed %s, request %s → %s", (allowed, model, expected) => {
    expect(namesModel(allowed, model)).toBe(expected);
  });
});

describe("modelPolicyFor: the configured model and the id the CLI sends for it", () => {
  const opus41 = { configured: "claude-opus-4-1", isDefault: false, sent: "claude-opus-4-8" };

  it("allows both names, and nothing else", () => {
    const policy = modelPolicyFor("anthropic", opus41, {});
    expect(policy.models).toEqual(["claude-opus-4-8", "claude-opus-4-1"]);
    expect(allowsModel(policy, "claude-opus-4-8")).toBe(true);
    expect(allowsModel(policy, "claude-opus-4-1")).toBe(true);
    expect(allowsModel(policy, "claude-opus-4-7")).toBe(false);
  });

  it("refuses another model with a 400 that names it, what is allowed and the setting", () => {
    const refused = applyPolicy(
      modelPolicyFor("anthropic", opus41, {}),
      {},
      Buffer.from(JSON.stringify({ model: "claude-made-up", messages: [] })),
    );
    expect(refused).toEqual({
      status: 400,
      model: "claude-made-up",
      message:
        'model "claude-made-up" refused: the app allows claude-opus-4-8, claude-opus-4-1 (AGENT_MODEL=claude-opus-4-1)',
    });
  });

  it("names the default when AGENT_MODEL is unset, and one name when the CLI sends it as configured", () => {
    const policy = modelPolicyFor("openai", { configured: "gpt-5.5", isDefault: true, sent: "gpt-5.5" }, {});
    expect(policy.models).toEqual(["gpt-5.5"]);
    expect(policy.source).toBe("AGENT_MODEL unset, default gpt-5.5");
  });
});
