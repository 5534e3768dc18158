import { classifyGitError } from "./classify-git-error.js";
import { encodeBasicAuth } from "./encode-basic-auth.js";
import { GitError } from "./git-error.js";
import { gitEnv } from "./git-env.js";
import { redactGitOutput } from "./redact-git-output.js";
import { processLauncher } from "../system/process-launcher.js";

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
  /**
   * Kill git once its stdout passes this many bytes and throw a GitError `over-limit`; default
   * DEFAULT_MAX_OUTPUT_BYTES. Git's output is otherwise held whole in memory.
   */
  maxOutputBytes?: number | undefined;
}

export interface GitResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

const DEFAULT_TIMEOUT_MS = 10 * 60_000;
/** The most any one git command may write to stdout unless the caller says otherwise. */
export const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/**
 * Runs `git <args>` without a shell, in a sanitized environment (see `gitEnv`). A non-zero exit
 * (other than `okExitCodes`), a timeout or a failure to start throws a `GitError` whose message
 * names the subcommand and carries stderr with the token redacted.
 */
export async function runGit(args: readonly string[], options: RunGitOptions): Promise<GitResult> {
  const { token, cwd, input } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const fullArgs = token
    ? ["-c", `http.extraHeader=Authorization: Basic ${encodeBasicAuth(token)}`, ...args]
    : [...args];
  const subcommand = findSubcommand(args);

  const fail = (
    kind: GitError["kind"] | undefined,
    exitCode: number | undefined,
    detail: string,
    stderrBytes: Buffer,
  ) => {
    const stderr = redactGitOutput(stderrBytes.toString("utf8").trim(), token);
    const why = detail || (exitCode === undefined ? "failed" : `exited with ${exitCode}`);
    const summary = stderr
      .split("\n")
      .filter((line) => !line.startsWith("hint:"))
      .join("\n")
      .trim();
    const message = redactGitOutput(`git ${subcommand} ${why}${summary ? `: ${summary}` : ""}`, token);
    return new GitError(kind ?? classifyGitError(stderr), message, { subcommand, exitCode, stderr });
  };

  // Started by the process launcher, so the fork never runs on this process's event loop.
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const result = await processLauncher().run({
    file: "git",
    args: fullArgs,
    cwd,
    env: gitEnv(),
    input,
    timeoutMs,
    maxOutputBytes,
  });
  if (result.startError !== undefined)
    throw fail("other", undefined, `could not start: ${result.startError}`, result.stderr);
  if (result.overLimit)
    throw fail("over-limit", undefined, `wrote more than ${maxOutputBytes} bytes and was stopped`, result.stderr);
  if (result.timedOut) throw fail("timeout", undefined, `timed out after ${timeoutMs} ms`, result.stderr);
  const code = result.exitCode;
  if (code === null) throw fail(undefined, undefined, `was killed by ${result.signal ?? "a signal"}`, result.stderr);
  if (code !== 0 && !(options.okExitCodes ?? []).includes(code)) throw fail(undefined, code, "", result.stderr);
  return { stdout: result.stdout.toString("utf8"), stderr: result.stderr.toString("utf8"), exitCode: code };
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
