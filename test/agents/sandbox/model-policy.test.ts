import { describe, expect, it } from "vitest";
import { namesModel } from "../../../src/agents/sandbox/model-policy.js";

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
