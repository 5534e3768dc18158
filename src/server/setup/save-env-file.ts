import { existsSync, readFileSync, writeFileSync } from "node:fs";

/**
 * Saves `values` (what the setup flow learns of the new App: APP_ID, PRIVATE_KEY, WEBHOOK_SECRET, the OAuth
 * client, the webhook channel) in the .env file at `path` and in this process's environment, in Probot's
 * format (newlines as `\n`), as Probot's own writer does — but at ENV_FILE, where a container keeps it, not
 * always in the working directory. Every other line of the file, comments included, is kept; an earlier
 * setting of one of these keys is replaced. The file is written in place (a file mounted into a container
 * cannot be replaced by a rename), readable by its owner only when this creates it.
 */
export function saveEnvFile(path: string, values: Record<string, string>): Record<string, string> {
  const kept = existsSync(path) ? withoutKeys(readFileSync(path, "utf8").split("\n"), values) : [];
  while (kept.length > 0 && kept.at(-1)!.trim() === "") kept.pop();
  const set = Object.entries(values).map(([key, value]) => `${key}=${value.replace(/\n/g, "\\n")}`);
  writeFileSync(path, `${[...kept, ...set].join("\n")}\n`, { mode: 0o600 });
  Object.assign(process.env, values);
  return values;
}

/** The lines that set none of `keys`; a quoted value that runs over several lines goes with its key. */
function withoutKeys(lines: string[], keys: Record<string, string>): string[] {
  const kept: string[] = [];
  let closing: string | undefined; // the quote that ends the value being dropped
  for (const line of lines) {
    if (closing) {
      if (line.trimEnd().endsWith(closing)) closing = undefined;
      continue;
    }
    const set = /^\s*(?:export\s+)?([\w.-]+)\s*=\s*(["'`]?)(.*)$/.exec(line);
    if (!set || !Object.hasOwn(keys, set[1]!)) {
      kept.push(line);
      continue;
    }
    const quote = set[2];
    if (quote && !set[3]!.trimEnd().endsWith(quote)) closing = quote;
  }
  return kept;
}
