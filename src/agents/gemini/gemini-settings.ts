import { randomBytes } from "node:crypto";
import { join } from "node:path";
import type { Role } from "../types.js";

/**
 * The settings every Gemini CLI turn runs with, written by the app (read-only inside the sandbox) as both
 * the user settings (`~/.gemini/settings.json`) and the system settings (GEMINI_CLI_SYSTEM_SETTINGS_PATH),
 * which outrank the workspace's. Checked with 0.61.0.
 */
export function geminiSettings(role: Role): Record<string, unknown> {
  return {
    // the API key from the environment: without it the CLI exits 41 asking how to sign in
    security: { auth: { selectedType: "gemini-api-key" } },
    // without it every run posts usage to play.googleapis.com
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: {
      enableAutoUpdate: false,
      enableAutoUpdateNotification: false,
      // the app retries a transient failure itself (RunSessions); the CLI's own are up to 10
      maxAttempts: 2,
      retryFetchErrors: false,
    },
    // A PR's `.gemini/settings.json` may declare hooks (commands run around every tool), MCP servers and
    // skills; none of them run, trusted workspace or not.
    hooksConfig: { enabled: false },
    skills: { enabled: false },
    mcp: { allowed: ["__none__"] },
    // the workspace's `.env` (the PR's) may set GEMINI_MODEL and the like
    advanced: { ignoreLocalEnv: true },
    // No memory file: GEMINI.md (the workspace's, its folders', the home's) is read whatever else is set, so the
    // CLI is told to look for a name nobody knows instead, and to look in no folder below the workspace.
    context: { fileName: [CONTEXT_FILE_NAME], discoveryMaxDirs: 0 },
    // no subagents (they would call other models) and no memories written between sessions
    experimental: { enableAgents: false, autoMemory: false },
    tools: { exclude: EXCLUDED_TOOLS[role] },
  };
}

/** The memory file the CLI looks for: a name of this process's own, in no PR and no earlier turn's home. */
const CONTEXT_FILE_NAME = `no-mistakes-none-${randomBytes(8).toString("hex")}.md`;

/**
 * Tools left out per role. Headless, the CLI offers only what needs no approval: reads and searches by
 * default, file edits too under `--approval-mode auto_edit` (the fixer's). Never a shell, the web, or
 * a question to a user who is not there.
 */
const NEVER = ["run_shell_command", "google_web_search", "web_fetch", "ask_user", "invoke_agent", "save_memory"];
const EXCLUDED_TOOLS: Record<Role, string[]> = {
  reviewer: [...NEVER, "write_file", "replace"],
  verifier: [...NEVER, "write_file", "replace"],
  fixer: NEVER,
};

/**
 * What the CLI reads from the workspace whatever its settings say — the PR head's GEMINI.md (always), its
 * `.gemini/` (settings, commands, skills, policies), `.agents/skills`, `.env` and `.geminiignore` — shown to
 * it empty by the sandbox.
 */
export function geminiHiddenPaths(workspace: string, home: string): string[] {
  return [
    ...["GEMINI.md", ".gemini", ".agents", ".env", ".geminiignore"].map((name) => join(workspace, name)),
    ...GEMINI_HOME_DIRS.map((name) => join(home, name)),
  ];
}

/**
 * Folders of the home the CLI loads from, which an earlier turn could have filled (the home is writable):
 * policies (which tools run unasked), extensions, skills, commands, subagents. The app makes each an empty
 * folder before every turn, and the sandbox shows it empty and read-only.
 */
export const GEMINI_HOME_DIRS = [
  ".gemini/policies",
  ".gemini/extensions",
  ".gemini/skills",
  ".gemini/commands",
  ".gemini/agents",
  ".agents",
];

/**
 * Files of the home the CLI reads whatever its settings say — the global memory file (`~/.gemini/GEMINI.md`,
 * read even when `context.fileName` names another) and the `.env` files: the app's, empty and read-only.
 */
export const GEMINI_HOME_FILES = { ".env": "", ".gemini/.env": "", ".gemini/GEMINI.md": "" };
