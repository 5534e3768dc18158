import { describe, expect, it } from "vitest";
import { findLaunchers, launcherChain } from "../../src/system/find-launchers.js";

const TSX_CLI = "node /srv/no-mistakes/node_modules/.bin/tsx --no-parallel-scavenge src/index.ts";
const SH_TSX = "sh -c tsx --no-parallel-scavenge src/index.ts";

describe("launcherChain", () => {
  it.each<[string, string[], number]>([
    ["npm start (npm → sh -c → tsx's CLI)", [TSX_CLI, SH_TSX, "npm start", "-bash"], 3],
    ["npm run start:prod (npm → sh -c → node)", ["sh -c node dist/index.js", "npm run start:prod", "bash"], 2],
    [
      "npm as its script path",
      ["sh -c node dist/index.js", "/usr/bin/node /usr/lib/node_modules/npm/bin/npm-cli.js start", "bash"],
      2,
    ],
    ["npx tsx src/index.ts", [TSX_CLI, "npm exec tsx src/index.ts", "zsh"], 2],
    ["pnpm start", [TSX_CLI, SH_TSX, "node /usr/local/bin/pnpm start", "bash"], 3],
    ["tsx src/index.ts from a shell", [TSX_CLI, "-bash"], 1],
    ["node dist/index.js from a shell (or nohup)", ["-bash", "sshd: me@pts/0"], 0],
    ["systemd's sh -c node dist/index.js", ["sh -c node dist/index.js"], 0],
    ["node --import tsx under vitest", ["node /srv/no-mistakes/node_modules/vitest/vitest.mjs run", "bash"], 0],
  ])("%s: %s watched", (_, commands, watched) => {
    const ancestors = commands.map((command, i) => ({ pid: 100 + i, command }));
    expect(launcherChain(ancestors)).toEqual(ancestors.slice(0, watched));
  });

  it("findLaunchers reads the chain from /proc: for this test process, only npm, tsx or sh -c wrappers", () => {
    for (const launcher of findLaunchers()) expect(launcher.command).toMatch(/npm|npx|tsx|sh -c/);
  });
});
