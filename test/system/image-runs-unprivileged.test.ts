import { spawnSync } from "node:child_process";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";

afterAll(() => removeTempDirs());

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The Dockerfile's last stage (the runtime image), as its instruction lines. */
function runtimeStage(): string[] {
  const lines = readFileSync(join(ROOT, "Dockerfile"), "utf8").split("\n");
  const from = lines.map((l, i) => (/^FROM\s/i.test(l) ? i : -1)).filter((i) => i >= 0);
  return lines.slice(from.at(-1)).filter((l) => l.trim() !== "" && !l.trim().startsWith("#"));
}

describe("the image does not run as root", () => {
  it("the runtime stage ends as a non-root USER that owns /data, created before VOLUME", () => {
    const stage = runtimeStage();
    const users = stage.filter((l) => /^USER\s/i.test(l)).map((l) => l.replace(/^USER\s+/i, "").trim());
    expect(users.length).toBeGreaterThan(0);
    const user = users.at(-1)!;
    expect(["root", "0", "0:0", "root:root"]).not.toContain(user);
    const userName = user.split(":")[0]!;

    const volume = stage.findIndex((l) => /^VOLUME\s/i.test(l));
    expect(stage[volume]).toContain("/data");
    const chown = stage.findIndex((l) => /^RUN\s.*chown\s+(-R\s+)?\S+\s+\/data\b/.test(l));
    expect(chown).toBeGreaterThanOrEqual(0);
    expect(chown).toBeLessThan(volume);
    expect(stage[chown]).toMatch(new RegExp(`chown\\s+(-R\\s+)?${userName}(:\\S+)?\\s+/data`));
    expect(stage[chown]).toMatch(/mkdir -p \/data/);
    // Nothing after USER switches back to root.
    const lastUser = stage.findLastIndex((l) => /^USER\s/i.test(l));
    expect(stage.slice(lastUser + 1).some((l) => /^USER\s/i.test(l))).toBe(false);
  });

  // setpriv needs root to change uid; CI and the dev machines run as root.
  it.runIf(process.getuid?.() === 0)(
    "the app's sandbox probe, run as uid 1000 with no groups, still confines (bwrap without setuid, user namespaces)",
    () => {
      const dir = tempDir("nm-unprivileged-");
      chmodSync(dir, 0o777);
      const script = join(dir, "probe.mts");
      writeFileSync(
        script,
        [
          `import { BubblewrapSandbox } from ${JSON.stringify(join(ROOT, "src/agents/sandbox/bubblewrap-sandbox.ts"))};`,
          `import { probeSandbox } from ${JSON.stringify(join(ROOT, "src/agents/sandbox/probe-sandbox.ts"))};`,
          `const probe = await probeSandbox(new BubblewrapSandbox());`,
          `process.stdout.write(JSON.stringify({ uid: process.getuid(), gid: process.getgid(), groups: process.getgroups(), probe }));`,
        ].join("\n"),
      );
      chmodSync(script, 0o644);
      const run = spawnSync(
        "setpriv",
        [
          "--reuid=1000",
          "--regid=1000",
          "--clear-groups",
          "env",
          `HOME=${dir}`,
          `TMPDIR=${dir}`,
          process.execPath,
          "--import",
          "tsx",
          script,
        ],
        { cwd: ROOT, encoding: "utf8", timeout: 60_000 },
      );
      expect(run.stderr).toBe("");
      const out = JSON.parse(run.stdout) as { uid: number; gid: number; groups: number[]; probe: { ok: boolean } };
      expect(out.uid).toBe(1000);
      expect(out.gid).toBe(1000);
      expect(out.groups.filter((g) => g !== 1000)).toEqual([]);
      // ok means the command ran in the sandbox AND a file beside its workspace was invisible to it.
      expect(out.probe).toMatchObject({ ok: true });
    },
    90_000,
  );
});
