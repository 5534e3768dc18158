import { describe, expect, it } from "vitest";
import { parseCommand } from "../../src/domain/parse-command.js";

describe("parseCommand", () => {
  it.each([
    ["/no-mistakes fix", { kind: "fix", findings: "default" }],
    ["/no-mistakes fix all", { kind: "fix", findings: "all" }],
    [
      "/no-mistakes fix ALL -- be careful with the API",
      { kind: "fix", findings: "all", note: "be careful with the API" },
    ],
    ["/no-mistakes fix NM-1 nm-4, NM-1", { kind: "fix", findings: [1, 4] }],
    ["/no-mistakes fix NM-2 -- a -- b", { kind: "fix", findings: [2], note: "a -- b" }],
    ["/no-mistakes fix -- just a note", { kind: "fix", findings: "default", note: "just a note" }],
    ["/no-mistakes fix NM-x", { kind: "fix", findings: [], invalid: ["NM-x"] }],
    ["/no-mistakes review", { kind: "review", full: false }],
    ["/no-mistakes review --full", { kind: "review", full: true }],
    ["/no-mistakes review now", { kind: "unknown", text: "review now" }],
    ["/no-mistakes dismiss NM-2 not a bug here", { kind: "dismiss", finding: 2, reason: "not a bug here" }],
    ["/no-mistakes dismiss NM-2", { kind: "dismiss", finding: 2 }],
    ["/no-mistakes dismiss", { kind: "dismiss", finding: undefined }],
    ["/no-mistakes reset", { kind: "reset" }],
    ["/no-mistakes reset fixer", { kind: "reset", role: "fixer" }],
    ["/no-mistakes reset Reviewer", { kind: "reset", role: "reviewer" }],
    ["/no-mistakes reset everything", { kind: "unknown", text: "reset everything" }],
    ["/no-mistakes pause", { kind: "pause" }],
    ["/no-mistakes resume", { kind: "resume" }],
    ["/no-mistakes status", { kind: "status" }],
    ["/no-mistakes status please", { kind: "unknown", text: "status please" }],
    ["/no-mistakes help", { kind: "help" }],
    ["/no-mistakes", { kind: "help" }],
    ["/no-mistakes frobnicate", { kind: "unknown", text: "frobnicate" }],
    ["Thanks!\n\n/no-mistakes fix NM-3\n/no-mistakes pause", { kind: "fix", findings: [3] }],
    ["  /no-mistakes pause  ", { kind: "pause" }],
    ["/no-mistakes\tstatus", { kind: "status" }],
    ["/no-mistakes ask Why is NM-1 an error?", { kind: "ask", question: "Why is NM-1 an error?" }],
    [
      "/no-mistakes ask Why this loop?\nIt looks fine to me.\n\nThanks",
      { kind: "ask", question: "Why this loop?\nIt looks fine to me.\n\nThanks" },
    ],
    ["/no-mistakes ask", { kind: "ask", question: "" }],
    ["> /no-mistakes fix\n/no-mistakes ask what changed?", { kind: "ask", question: "what changed?" }],
  ])("%j", (body, expected) => {
    expect(parseCommand(body)).toEqual(expected);
  });

  it.each([
    ["no command here"],
    ["/no-mistakesfix"],
    ["please run /no-mistakes fix"],
    ["> /no-mistakes fix"],
    ["> quoted\n> /no-mistakes fix"],
    ["```\n/no-mistakes fix\n```"],
    ["~~~sh\n/no-mistakes fix\n~~~"],
    ["````\n```\n/no-mistakes fix\n```\n````"],
    ["    /no-mistakes fix"],
    ["\t/no-mistakes fix"],
  ])("ignores %j", (body) => {
    expect(parseCommand(body)).toBeUndefined();
  });

  it("finds a command after a closed code block", () => {
    expect(parseCommand("```\ncode\n```\n/no-mistakes status")).toEqual({ kind: "status" });
  });
});
