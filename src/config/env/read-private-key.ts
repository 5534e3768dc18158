import { readFileSync } from "node:fs";

/** The App's private key as configured: PRIVATE_KEY (its "\n" escapes undone) or the file at PRIVATE_KEY_PATH. */
export interface ConfiguredKey {
  key?: string;
  /** The setting it came from, for problems to name. */
  from: "PRIVATE_KEY" | "PRIVATE_KEY_PATH";
  /** Why it could not be read (the file missing, unreadable or empty), in plain words. */
  problem?: string;
}

export function readPrivateKey(env: NodeJS.ProcessEnv): ConfiguredKey {
  const inline = env.PRIVATE_KEY?.trim() ? env.PRIVATE_KEY.replace(/\\n/g, "\n") : undefined;
  if (inline) return { key: inline, from: "PRIVATE_KEY" };
  const path = env.PRIVATE_KEY_PATH?.trim() ? env.PRIVATE_KEY_PATH : undefined;
  if (!path) return { from: "PRIVATE_KEY" };
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    return {
      from: "PRIVATE_KEY_PATH",
      problem: `PRIVATE_KEY_PATH: cannot read "${path}" (${(error as Error).message})`,
    };
  }
  if (text.trim() === "")
    return {
      from: "PRIVATE_KEY_PATH",
      problem: `PRIVATE_KEY_PATH: "${path}" is empty (it should hold the .pem file GitHub gave you)`,
    };
  return { key: text, from: "PRIVATE_KEY_PATH" };
}
