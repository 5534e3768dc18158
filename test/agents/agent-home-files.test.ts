import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { claudeProjectDirName, exportClaudeSession, importClaudeSession } from "../../src/agents/claude-sessions.js";
import { packRollout, restoreRollout } from "../../src/agents/codex-rollout.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";

const SESSION = "0b1c2d3e-4f50-4617-8899-aabbccddeeff";
const SECRET = "PRIVATE_KEY=never-exported";

afterAll(() => removeTempDirs());

/** The agent writes its home inside the sandbox; the app exports and restores it outside, and must not follow what the agent planted. */
describe("session files of an agent home, read and written by the app", () => {
  it("a Claude transcript replaced by a link to a host file is not exported", async () => {
    const root = tempDir();
    const secret = join(root, ".env");
    writeFileSync(secret, SECRET);
    const home = join(root, "home");
    const cwd = join(root, "ws");
    mkdirSync(cwd);
    const dir = join(home, "projects", claudeProjectDirName(cwd));
    mkdirSync(dir, { recursive: true });
    symlinkSync(secret, join(dir, `${SESSION}.jsonl`));
    expect(await exportClaudeSession(home, SESSION, cwd)).toBeUndefined();
  });

  it("a Claude project dir replaced by a link out of the home: the restore refuses to write there", async () => {
    const root = tempDir();
    const elsewhere = join(root, "app-src");
    mkdirSync(elsewhere);
    const home = join(root, "home");
    const cwd = join(root, "ws");
    mkdirSync(cwd);
    mkdirSync(join(home, "projects"), { recursive: true });
    symlinkSync(elsewhere, join(home, "projects", claudeProjectDirName(cwd)));
    await expect(importClaudeSession(home, SESSION, cwd, Buffer.from('{"x":1}\n'))).rejects.toThrow(
      /outside the agent home/,
    );
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it("a Codex rollout replaced by a link is not exported; a sessions dir linked out of the home is not restored into", async () => {
    const root = tempDir();
    const secret = join(root, ".env");
    writeFileSync(secret, SECRET);
    const home = join(root, "codex-home");
    const day = join(home, "sessions", "2026", "12", "01");
    mkdirSync(day, { recursive: true });
    const rollout = join(day, `rollout-2026-12-01T00-00-00-${SESSION}.jsonl`);
    symlinkSync(secret, rollout);
    expect(await packRollout(home, rollout, SESSION)).toBeUndefined();

    const other = join(root, "other-home");
    const elsewhere = join(root, "elsewhere");
    mkdirSync(elsewhere);
    mkdirSync(other);
    symlinkSync(elsewhere, join(other, "sessions"));
    const packed = {
      threadId: SESSION,
      path: `sessions/2026/12/01/rollout-2026-12-01T00-00-00-${SESSION}.jsonl`,
      content: Buffer.from("{}\n"),
    };
    await expect(restoreRollout(other, packed)).rejects.toThrow(/outside the agent home/);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});
