import { execFileSync } from "node:child_process";
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  claudeProjectDirName,
  exportClaudeSession,
  importClaudeSession,
} from "../../../src/agents/claude/claude-sessions.js";
import {
  findRollout,
  packRollout,
  readRolloutTotals,
  restoreRollout,
} from "../../../src/agents/codex/codex-rollout.js";
import { HOME_FILE_MAX_BYTES, readHomeFile, writeHomeFile } from "../../../src/agents/sandbox/agent-home-files.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";

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

/** A FIFO nobody writes to: an open for reading without O_NONBLOCK waits for a writer forever. */
function fifo(path: string): void {
  execFileSync("mkfifo", [path]);
}

describe("every app-side access to an agent home: no links, regular files only, a size cap, never blocking", () => {
  it("a capped read returns nothing for a file past the cap (never read whole), for a FIFO, and for a link to /dev/zero", async () => {
    const home = tempDir();
    const big = join(home, "big.jsonl");
    writeFileSync(big, "");
    truncateSync(big, 4096 + 1); // sparse: one byte past the cap
    expect(await readHomeFile(home, big, 4096)).toBeUndefined();
    const exact = join(home, "exact.jsonl");
    writeFileSync(exact, "x".repeat(4096));
    expect((await readHomeFile(home, exact, 4096))?.length).toBe(4096);
    fifo(join(home, "pipe"));
    expect(await readHomeFile(home, join(home, "pipe"))).toBeUndefined();
    symlinkSync("/dev/zero", join(home, "zero"));
    expect(await readHomeFile(home, join(home, "zero"))).toBeUndefined();
  });

  it("a write replaces a link, a FIFO or a directory the agent left at the path, and never goes through it", async () => {
    const root = tempDir();
    const victim = join(root, "private-key.pem");
    writeFileSync(victim, SECRET);
    const home = join(root, "home");
    mkdirSync(home);
    symlinkSync(victim, join(home, "config.toml"));
    await writeHomeFile(home, join(home, "config.toml"), "model = 1\n");
    expect(readFileSync(victim, "utf8")).toBe(SECRET);
    expect(lstatSync(join(home, "config.toml")).isFile()).toBe(true);
    expect(readFileSync(join(home, "config.toml"), "utf8")).toBe("model = 1\n");

    rmSync(join(home, "config.toml"));
    fifo(join(home, "config.toml"));
    await writeHomeFile(home, join(home, "config.toml"), "model = 2\n");
    expect(readFileSync(join(home, "config.toml"), "utf8")).toBe("model = 2\n");

    rmSync(join(home, "config.toml"));
    mkdirSync(join(home, "config.toml", "deep"), { recursive: true });
    symlinkSync(victim, join(home, "config.toml", "deep", "link"));
    await writeHomeFile(home, join(home, "config.toml"), "model = 3\n");
    expect(readFileSync(join(home, "config.toml"), "utf8")).toBe("model = 3\n");
    expect(readFileSync(victim, "utf8")).toBe(SECRET);
    expect(readdirSync(home)).toEqual(["config.toml"]); // no temp file left behind
  });

  it("a Claude transcript that is a FIFO is not exported, and the export does not block", async () => {
    const root = tempDir();
    const home = join(root, "home");
    const cwd = join(root, "ws");
    mkdirSync(cwd);
    const dir = join(home, "projects", claudeProjectDirName(cwd));
    mkdirSync(dir, { recursive: true });
    fifo(join(dir, `${SESSION}.jsonl`));
    expect(await exportClaudeSession(home, SESSION, cwd)).toBeUndefined();
  }, 10_000);

  it("a Claude projects dir linked out of the home is not walked for a transcript", async () => {
    const root = tempDir();
    const elsewhere = join(root, "elsewhere", "-some-project");
    mkdirSync(elsewhere, { recursive: true });
    writeFileSync(join(elsewhere, `${SESSION}.jsonl`), SECRET);
    const home = join(root, "home");
    mkdirSync(home);
    symlinkSync(join(root, "elsewhere"), join(home, "projects"));
    expect(await exportClaudeSession(home, SESSION, join(root, "ws"))).toBeUndefined();
  });

  it("a Codex rollout that is a FIFO, a huge file or a link is neither read for its totals nor exported, and nothing blocks", async () => {
    const root = tempDir();
    const home = join(root, "codex-home");
    const day = join(home, "sessions", "2026", "12", "01");
    mkdirSync(day, { recursive: true });
    const rollout = join(day, `rollout-2026-12-01T00-00-00-${SESSION}.jsonl`);
    fifo(rollout);
    expect(await findRollout(home, SESSION)).toBe(undefined);
    expect(await readRolloutTotals(home, rollout)).toEqual({ input: 0, output: 0 });
    expect(await packRollout(home, rollout, SESSION)).toBeUndefined();

    rmSync(rollout);
    const counted = `{"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":7,"output_tokens":3}}}}\n`;
    const secret = join(root, "host.jsonl");
    writeFileSync(secret, counted);
    symlinkSync(secret, rollout);
    expect(await readRolloutTotals(home, rollout)).toEqual({ input: 0, output: 0 });

    rmSync(rollout);
    writeFileSync(rollout, counted);
    expect(await readRolloutTotals(home, rollout)).toEqual({ input: 7, output: 3 }); // the legitimate one
    truncateSync(rollout, HOME_FILE_MAX_BYTES + 1);
    expect(await readRolloutTotals(home, rollout)).toEqual({ input: 0, output: 0 });
    expect(await packRollout(home, rollout, SESSION)).toBeUndefined();
  }, 10_000);

  it("a Codex sessions year dir linked out of the home is not walked", async () => {
    const root = tempDir();
    const elsewhere = join(root, "elsewhere", "12", "01");
    mkdirSync(elsewhere, { recursive: true });
    writeFileSync(join(elsewhere, `rollout-2026-12-01T00-00-00-${SESSION}.jsonl`), SECRET);
    const home = join(root, "codex-home");
    mkdirSync(join(home, "sessions"), { recursive: true });
    symlinkSync(join(root, "elsewhere"), join(home, "sessions", "2026"));
    expect(await findRollout(home, SESSION)).toBeUndefined();
  });
});
