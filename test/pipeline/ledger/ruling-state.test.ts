import { describe, expect, it } from "vitest";
import { isConfirmation } from "../../../src/domain/is-confirmation.js";
import { mentionsABot, mentionsBot } from "../../../src/domain/bot-mentions.js";
import {
  awaitingMaintainer,
  confirmPatch,
  rulingNote,
  rulingPatch,
  type Ruling,
} from "../../../src/pipeline/ledger/ruling-state.js";

const by = "dev";

describe("rulingPatch", () => {
  it.each<[string, string, Ruling, boolean, "error" | "warning" | "info" | "never", Record<string, unknown>]>([
    // [status, severity, ruling, by a writer, fail_on, expected]
    ["open", "error", "upheld", false, "error", { ruling: "upheld", rulingConfirmation: null }],
    ["open", "error", "withdrawn", true, "error", { status: "withdrawn", rulingConfirmation: "writer" }],
    ["open", "error", "withdrawn", false, "error", { rulingConfirmation: "awaiting" }],
    ["fix-pushed", "warning", "withdrawn", false, "warning", { rulingConfirmation: "awaiting" }],
    ["open", "warning", "withdrawn", false, "error", { status: "withdrawn", rulingConfirmation: "not-needed" }],
    ["open", "error", "withdrawn", false, "never", { status: "withdrawn", rulingConfirmation: "not-needed" }],
    ["open", "error", "deferred", true, "error", { status: "deferred", rulingConfirmation: "writer" }],
    ["open", "error", "deferred", false, "error", { rulingConfirmation: "awaiting" }],
    ["open", "info", "deferred", false, "error", { status: "deferred", rulingConfirmation: "not-needed" }],
    ["withdrawn", "error", "upheld", true, "error", { status: "open", ruling: "upheld" }],
    ["deferred", "error", "withdrawn", false, "error", { status: "open", rulingConfirmation: "awaiting" }],
    ["fixed", "error", "withdrawn", true, "error", { ruling: "withdrawn", rulingConfirmation: null }],
  ])("%s %s finding, %s (writer: %s, fail_on %s)", (status, severity, ruling, byWriter, failOn, expected) => {
    const patch = rulingPatch({ status, severity }, { ruling, reason: "because", by, byWriter, failOn });
    expect(patch).toMatchObject({ ruling, rulingReason: "because", rulingBy: by, rulingReplyId: null, ...expected });
    if (!("status" in expected)) expect(patch.status).toBeUndefined();
  });

  it("awaiting a maintainer keeps the finding open and says so; a confirmation puts the ruling in effect", () => {
    const awaiting = { status: "open", ruling: "withdrawn", rulingConfirmation: "awaiting" };
    expect(awaitingMaintainer(awaiting)).toBe(true);
    expect(rulingNote(awaiting)).toBe("withdrawn at the author's request, awaiting a maintainer");
    expect(confirmPatch(awaiting, "boss")).toEqual({
      rulingConfirmation: "confirmed",
      rulingConfirmedBy: "boss",
      status: "withdrawn",
    });
    expect(confirmPatch({ status: "open", ruling: "deferred" }, "boss")).toMatchObject({ status: "deferred" });
    expect(rulingNote({ status: "withdrawn", ruling: "withdrawn", rulingConfirmation: "confirmed" })).toBe("");
  });
});

describe("confirmations and mentions", () => {
  it.each([
    ["confirm", true],
    ["Confirmed.", true],
    ["I confirm, withdraw it", true],
    ["+1", true],
    ["👍", true],
    ["I cannot confirm this", false],
    ["not confirmed", false],
    ["ok", false],
  ])("%j is a confirmation: %s", (body, expected) => {
    expect(isConfirmation(body)).toBe(expected);
  });

  it("a mention is of a bot account, and of this app's when asked", () => {
    expect(mentionsABot("@no-mistakes[bot] why?")).toBe(true);
    expect(mentionsABot("see `@no-mistakes[bot]`")).toBe(false);
    expect(mentionsABot("me@example.com[bot]")).toBe(false);
    expect(mentionsBot("hey @No-Mistakes[bot], why?", "no-mistakes[bot]")).toBe(true);
    expect(mentionsBot("hey @no-mistakes-two[bot]", "no-mistakes[bot]")).toBe(false);
    expect(mentionsBot("hey @other[bot]", "no-mistakes[bot]")).toBe(false);
  });
});
