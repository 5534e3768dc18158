import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { AgentError } from "../agent-error.js";
import { writeHomeFile, type AppFile } from "../sandbox/agent-home-files.js";

/** The folders of one (run, role)'s OpenCode home: HOME and the XDG dirs under it. */
export interface OpenCodeHome {
  home: string;
  config: string;
  data: string;
  state: string;
  cache: string;
}

/** The home of a scope (one per run and role), under the agents' home dir. */
export function openCodeHomeFor(homeDir: string, scope?: string): OpenCodeHome {
  const name = scope === undefined || scope === "" ? "default" : scope;
  if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new AgentError("other", `opencode: invalid scope ${JSON.stringify(name)}`);
  const home = join(homeDir, "opencode", name);
  return {
    home,
    config: join(home, "config"),
    data: join(home, "data"),
    state: join(home, "state"),
    cache: join(home, "cache"),
  };
}

/**
 * Places in the home OpenCode reads by itself — global config, plugins, agents, commands, skills (its own,
 * Claude Code's, `.agents`), cached packages. A turn writes its home, and the home is kept for the later
 * turns of its run and role, so these are removed before every turn: nothing an earlier turn planted there
 * is loaded as config or code. (`rm` removes a link, never what it leads to.)
 */
const RESET = ["config", "cache", ".config", ".opencode", ".claude", ".agents"];

/** Removes what an earlier turn may have left at the places above, and makes the XDG dirs afresh. */
export async function resetOpenCodeHome(h: OpenCodeHome): Promise<void> {
  await mkdir(h.home, { recursive: true });
  await Promise.all(RESET.map((name) => rm(join(h.home, name), { recursive: true, force: true })));
  for (const dir of [h.config, h.data, h.state, h.cache]) await mkdir(dir, { recursive: true });
}

/**
 * The app's config folder for OpenCode: written afresh into `appDir` (outside every home) and bound
 * read-only over `<XDG_CONFIG_HOME>/opencode` inside the sandbox — read-only, with a .gitignore, so OpenCode
 * never installs packages there and the agent cannot change what the next turn loads. The same files are
 * put in the home for an unconfined run.
 */
export async function placeOpenCodeConfig(
  h: OpenCodeHome,
  appDir: string,
  files: Readonly<Record<string, string>>,
): Promise<AppFile[]> {
  const target = join(h.config, "opencode");
  await rm(appDir, { recursive: true, force: true });
  await mkdir(appDir, { recursive: true, mode: 0o700 });
  for (const [name, content] of Object.entries(files)) {
    await writeHomeFile(appDir, join(appDir, name), content, 0o644);
    await writeHomeFile(h.home, join(target, name), content, 0o644);
  }
  return [{ source: appDir, target }];
}
