import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The Dockerfile's last stage (the runtime image): its instructions, continuation lines joined, comments out. */
export function runtimeInstructions(): string[] {
  const joined = readFileSync(join(ROOT, "Dockerfile"), "utf8")
    .split("\n")
    .filter((l) => !l.trim().startsWith("#"))
    .join("\n")
    .replace(/\\\n\s*/g, " ");
  const lines = joined.split("\n").filter((l) => l.trim() !== "");
  const from = lines.findLastIndex((l) => /^FROM\s/i.test(l));
  return lines.slice(from);
}

/** The runtime image's environment: every `ENV key=value` of its stage. */
export function imageEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of runtimeInstructions().filter((l) => /^ENV\s/i.test(l))) {
    for (const pair of line.replace(/^ENV\s+/i, "").split(/\s+/)) {
      const eq = pair.indexOf("=");
      if (eq > 0) env[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
  }
  return env;
}

/** The image's CMD, as the exec-form JSON array Docker reads. */
export function imageCmd(): string[] {
  const line = runtimeInstructions().find((l) => /^CMD\s+\[/i.test(l));
  if (!line) throw new Error("the Dockerfile has no exec-form CMD");
  return JSON.parse(line.replace(/^CMD\s+/i, "")) as string[];
}
