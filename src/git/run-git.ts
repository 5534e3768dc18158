import { spawn } from "node:child_process";
import { classifyGitError } from "./classify-git-error.js";
import { encodeBasicAuth } from "./encode-basic-auth.js";
import { GitError } from "./git-error.js";
import { gitEnv } from "./git-env.js";
import { redactGitOutput } from "./redact-git-output.js";

export interface RunGitOptions {
  cwd: string;
  /** Sent as an `Authorization: Basic` header given with `-c` on the command line; never stored. */
  token?: string | undefined;
  /** Kill git (and its helpers) after this long; default 10 minutes. */
  timeoutMs?: number | undefined;
  /** Written to git's stdin (stdin is empty otherwise). */
  input?: string | Buffer | undefined;
  /** Exit codes that are answers, not failures (e.g. 1 for `merge-base --is-ancestor`). */
  okExitCodes?: readonly number[] | undefined;
}

export interface GitResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

const DEFAULT_TIMEOUT_MS = 10 * 60_000;

/**
 * Runs `git <args>` without a shell, in a sanitized environment (see `gitEnv`). A non-zero exit
 * (other than `okExitCodes`), a timeout or a failure to start throws a `GitError` whose message
 * names the subcommand and carries stderr with the token redacted.
 */
export function runGit(args: readonly string[], options: RunGitOptions): Promise<GitResult> {
  const { token, cwd, input } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const fullArgs = token
    ? ["-c", `http.extraHeader=Authorization: Basic ${encodeBasicAuth(token)}`, ...args]
    : [...args];
  const subcommand = findSubcommand(args);

  return new Promise<GitResult>((resolve, reject) => {
    const child = spawn("git", fullArgs, {
      cwd,
      env: gitEnv(),
      stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      // Its own process group, so a timeout also kills git-remote-https and friends.
      detached: true,
      windowsHide: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    let settled = false;

    const fail = (
      kind: GitError["kind"] | undefined,
      exitCode: number | undefined,
      detail: string,
      cause?: unknown,
    ) => {
      const stderr = redactGitOutput(Buffer.concat(err).toString("utf8").trim(), token);
      const why = detail || (exitCode === undefined ? "failed" : `exited with ${exitCode}`);
      const summary = stderr
        .split("\n")
        .filter((line) => !line.startsWith("hint:"))
        .join("\n")
        .trim();
      const message = redactGitOutput(`git ${subcommand} ${why}${summary ? `: ${summary}` : ""}`, token);
      reject(new GitError(kind ?? classifyGitError(stderr), message, { subcommand, exitCode, stderr }, { cause }));
    };

    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
      // Helpers that escaped the group could hold the pipes open; do not wait for them.
      child.stdout?.destroy();
      child.stderr?.destroy();
    }, timeoutMs);

    child.stdout?.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => err.push(chunk));
    child.stdin?.on("error", () => {
      // git exited before reading all of its input; its exit status tells the story.
    });
    if (child.stdin && input !== undefined) child.stdin.end(input);

    child.once("error", (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fail("other", undefined, `could not start: ${error.message}`, error);
    });
    child.once("close", (code, signal) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (timedOut) return fail("timeout", undefined, `timed out after ${timeoutMs} ms`);
      if (code === null) return fail(undefined, undefined, `was killed by ${signal ?? "a signal"}`);
      if (code !== 0 && !(options.okExitCodes ?? []).includes(code)) return fail(undefined, code, "");
      resolve({
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        exitCode: code,
      });
    });
  });
}

/** The first argument that is not a global option (`-c k=v`, `-C dir`, `--git-dir=…`). */
function findSubcommand(args: readonly string[]): string {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-c" || arg === "-C") i++;
    else if (!arg.startsWith("-")) return arg;
  }
  return "(none)";
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // The group is already gone.
  }
}
