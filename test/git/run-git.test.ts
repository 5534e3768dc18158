import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import type { Server, Socket } from "node:net";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { encodeBasicAuth } from "../../src/git/encode-basic-auth.js";
import { GitError } from "../../src/git/git-error.js";
import { runGit } from "../../src/git/run-git.js";
import { freePort } from "../helpers/free-port.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { createOrigin, git } from "./git-fixture.js";
import { startGitHttpServer } from "./git-http-server.js";

const TOKEN = "ghs_runGitTestToken0123456789abcdefABCDEF";

async function gitError(promise: Promise<unknown>): Promise<GitError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GitError);
  return error as GitError;
}

function expectNoToken(text: string, token = TOKEN): void {
  expect(text).not.toContain(token);
  expect(text).not.toContain(encodeBasicAuth(token));
}

const savedEnv = new Map<string, string | undefined>();

function setEnv(values: Record<string, string>): void {
  for (const [name, value] of Object.entries(values)) {
    if (!savedEnv.has(name)) savedEnv.set(name, process.env[name]);
    process.env[name] = value;
  }
}

afterEach(() => {
  for (const [name, value] of savedEnv) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  savedEnv.clear();
  removeTempDirs();
});

describe("runGit", () => {
  it("returns stdout and passes input on stdin", async () => {
    const result = await runGit(["hash-object", "--stdin"], { cwd: tempDir(), input: "hello\n" });
    expect(result).toMatchObject({ stdout: "ce013625030ba8dba906f756967f9e9ca394464a\n", exitCode: 0 });
  });

  it("runs git with a sanitized environment", async () => {
    setEnv({ GITHUB_TOKEN: TOKEN, GH_TOKEN: TOKEN, GIT_ASKPASS: "/usr/bin/env", GIT_DIR: "/nonexistent" });
    const { stdout } = await runGit(["-c", "alias.dumpenv=!env", "dumpenv"], { cwd: tempDir() });
    const env = Object.fromEntries(
      stdout
        .split("\n")
        .filter((line) => line.includes("="))
        .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
    );
    expect(stdout).not.toContain(TOKEN);
    expect(env.GITHUB_TOKEN).toBeUndefined();
    expect(env.GH_TOKEN).toBeUndefined();
    expect(env.GIT_DIR).toBeUndefined();
    expect(env).toMatchObject({ LANG: "C", GIT_TERMINAL_PROMPT: "0", GIT_CONFIG_NOSYSTEM: "1" });
    expect(env.GIT_ASKPASS).not.toBe("/usr/bin/env");
    expect(env.HOME).toBeDefined();
    expect(env.HOME).not.toBe(homedir());
  });

  it("treats okExitCodes as answers and other exits as GitError with the subcommand", async () => {
    const origin = createOrigin();
    const sha = origin.commit({ "a.txt": "a\n" });
    const answer = await runGit(["merge-base", "--is-ancestor", sha, `${sha}~0`], {
      cwd: origin.work,
      okExitCodes: [1],
    });
    expect(answer.exitCode).toBe(0);
    const error = await gitError(runGit(["rev-parse", "--verify", "nope^{commit}"], { cwd: origin.work }));
    expect(error.kind).toBe("not-found");
    expect(error.subcommand).toBe("rev-parse");
    expect(error.exitCode).toBe(128);
    expect(error.message).toMatch(/^git rev-parse exited with 128: fatal: Needed a single revision/);
  });

  it("sends the token only as a Basic Authorization header", async () => {
    const origin = createOrigin();
    const sha = origin.commit({ "a.txt": "a\n" });
    origin.push("main");
    const server = await startGitHttpServer(origin.root, { token: TOKEN });
    try {
      const { stdout } = await runGit(["ls-remote", server.url("origin.git"), "refs/heads/main"], {
        cwd: tempDir(),
        token: TOKEN,
      });
      expect(stdout).toBe(`${sha}\trefs/heads/main\n`);
      expect(server.authorizations).toContain(`Basic ${encodeBasicAuth(TOKEN)}`);
    } finally {
      await server.close();
    }
  });

  it("classifies a refused token as auth and redacts it from the message", async () => {
    const origin = createOrigin();
    const server = await startGitHttpServer(origin.root, { token: "ghs_theRightTokenxxxxxxxxxxxxxxxxxxxxxxxx" });
    try {
      const error = await gitError(runGit(["ls-remote", server.url("origin.git")], { cwd: tempDir(), token: TOKEN }));
      expect(error.kind).toBe("auth");
      expect(error.message).toMatch(/^git ls-remote /);
      expectNoToken(error.message);
      expectNoToken(error.stderr);
      const anonymous = await gitError(runGit(["ls-remote", server.url("origin.git")], { cwd: tempDir() }));
      expect(anonymous.kind).toBe("auth");
    } finally {
      await server.close();
    }
  });

  it("does not send credentials from the user's ~/.netrc", async () => {
    const origin = createOrigin();
    const server = await startGitHttpServer(origin.root, { token: TOKEN });
    try {
      const home = tempDir();
      writeFileSync(join(home, ".netrc"), `machine 127.0.0.1 login x-access-token password ${TOKEN}\n`, {
        mode: 0o600,
      });
      setEnv({ HOME: home });
      const error = await gitError(runGit(["ls-remote", server.url("origin.git")], { cwd: tempDir() }));
      expect(error.kind).toBe("auth");
      expect(server.authorizations).not.toContain(`Basic ${encodeBasicAuth(TOKEN)}`);
    } finally {
      await server.close();
    }
  });

  it("classifies an unreachable host as network without leaking the token", async () => {
    const port = await freePort();
    const error = await gitError(
      runGit(["ls-remote", `http://x-access-token:${TOKEN}@127.0.0.1:${port}/x.git`], { cwd: tempDir(), token: TOKEN }),
    );
    expect(error.kind).toBe("network");
    expectNoToken(error.message);
    expect(error.message).toContain("127.0.0.1");
  });

  it("kills git when it runs past the time limit", async () => {
    const sockets: Socket[] = [];
    const server: Server = createServer((socket) => sockets.push(socket)); // accepts, never answers
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    try {
      const error = await gitError(
        runGit(["ls-remote", `http://127.0.0.1:${port}/slow.git`], { cwd: tempDir(), token: TOKEN, timeoutMs: 1_000 }),
      );
      expect(error.kind).toBe("timeout");
      expect(error.message).toMatch(/^git ls-remote timed out after 1000 ms/);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("reports a missing working directory as a GitError", async () => {
    const error = await gitError(runGit(["status"], { cwd: `${tempDir()}/missing` }));
    expect(error.kind).toBe("other");
    expect(error.message).toContain("git status");
  });

  it("does not read the user's global or XDG config", async () => {
    const home = tempDir();
    writeFileSync(join(home, ".gitconfig"), "[user]\n\tname = Leaked From Home\n");
    mkdirSync(join(home, "xdg", "git"), { recursive: true });
    writeFileSync(join(home, "xdg", "git", "config"), "[user]\n\temail = leaked@xdg\n");
    setEnv({ HOME: home, XDG_CONFIG_HOME: join(home, "xdg"), GIT_CONFIG_GLOBAL: join(home, ".gitconfig") });
    const dir = tempDir();
    git(dir, "init", "-q");
    const { stdout } = await runGit(["config", "--list", "--show-origin"], { cwd: dir });
    expect(stdout).not.toContain("leaked");
    expect(stdout).not.toContain("Leaked");
  });
});

describe("runGit output cap", () => {
  it("kills git past its byte cap and says so (over-limit, not a failure of git)", async () => {
    const origin = createOrigin();
    const big = "x".repeat(200_000);
    writeFileSync(join(origin.work, "big.txt"), big);
    git(origin.work, "add", "big.txt");
    git(origin.work, "commit", "-qm", "big");
    const error = await gitError(runGit(["show", "HEAD:big.txt"], { cwd: origin.work, maxOutputBytes: 10_000 }));
    expect(error.kind).toBe("over-limit");
    expect(error.message).toContain("more than 10000 bytes");
    const whole = await runGit(["show", "HEAD:big.txt"], { cwd: origin.work, maxOutputBytes: 300_000 });
    expect(whole.stdout).toBe(big);
  });
});
