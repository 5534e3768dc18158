import type { Command } from "./command.js";
import { parseFindingId } from "./finding-id.js";

const PREFIX = "/no-mistakes";

/**
 * The first `/no-mistakes …` line of a comment, outside quotes and code blocks; undefined when the
 * comment holds none. Unknown words become `unknown` (answered with help), never a guess.
 */
export function parseCommand(body: string): Command | undefined {
  const found = commandLine(body);
  if (found === undefined) return undefined;
  const { line, after } = found;
  const rest = line.slice(PREFIX.length).trim();
  const [verb = "", ...args] = rest.split(/\s+/).filter(Boolean);
  switch (verb.toLowerCase()) {
    case "fix":
      return parseFix(rest.slice(verb.length).trim());
    case "review":
      return args.length === 0 || (args.length === 1 && args[0] === "--full")
        ? { kind: "review", full: args[0] === "--full" }
        : { kind: "unknown", text: rest };
    case "dismiss": {
      const finding = args[0] ? parseFindingId(args[0]) : undefined;
      const reason = args.slice(1).join(" ").trim();
      return { kind: "dismiss", finding, ...(reason ? { reason } : {}) };
    }
    case "reset": {
      if (args.length === 0) return { kind: "reset" };
      const role = args[0]!.toLowerCase();
      return args.length === 1 && (role === "reviewer" || role === "fixer")
        ? { kind: "reset", role }
        : { kind: "unknown", text: rest };
    }
    case "ask": {
      // the rest of the line and the lines after it: a question may take a paragraph
      const question = [rest.slice(verb.length).trim(), after].filter(Boolean).join("\n").trim();
      return { kind: "ask", question };
    }
    case "pause":
    case "resume":
    case "status":
    case "config":
    case "learn":
    case "help":
      return args.length === 0
        ? { kind: verb.toLowerCase() as "pause" | "resume" | "status" | "config" | "learn" | "help" }
        : { kind: "unknown", text: rest };
    case "":
      return { kind: "help" };
    default:
      return { kind: "unknown", text: rest };
  }
}

function parseFix(text: string): Command {
  const [targets = "", ...noteParts] = text.split(/\s--(?:\s|$)|^--(?:\s|$)/);
  const note = noteParts.join(" -- ").trim() || undefined;
  const words = targets.split(/[\s,]+/).filter(Boolean);
  if (words.length === 0) return { kind: "fix", findings: "default", ...(note ? { note } : {}) };
  if (words.length === 1 && words[0]!.toLowerCase() === "all")
    return { kind: "fix", findings: "all", ...(note ? { note } : {}) };
  const numbers: number[] = [];
  const invalid: string[] = [];
  for (const word of words) {
    const n = parseFindingId(word);
    if (n === undefined) invalid.push(word);
    else if (!numbers.includes(n)) numbers.push(n);
  }
  return { kind: "fix", findings: numbers, ...(note ? { note } : {}), ...(invalid.length ? { invalid } : {}) };
}

function commandLine(body: string): { line: string; after: string } | undefined {
  let fence: string | undefined;
  const lines = body.replace(/\r\n/g, "\n").split("\n");
  for (const [i, raw] of lines.entries()) {
    const fenceMatch = /^\s{0,3}(`{3,}|~{3,})/.exec(raw);
    if (fenceMatch) {
      const marker = fenceMatch[1]!;
      if (fence === undefined) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    if (/^ {4,}|^\t/.test(raw)) continue; // indented code
    const line = raw.trim();
    if (line.startsWith(">")) continue; // quoted from someone else
    if (line === PREFIX || line.startsWith(`${PREFIX} `) || line.startsWith(`${PREFIX}\t`))
      return {
        line,
        after: lines
          .slice(i + 1)
          .join("\n")
          .trim(),
      };
  }
  return undefined;
}
