import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

const CALL = `
const [file, name, calls] = process.argv.slice(1);
let value = (await import(file))[name];
for (const args of JSON.parse(calls)) value = value(...args);
process.stdout.write(JSON.stringify({ value }));
`;

/**
 * Calls `name` exported by `file` (a path from the repository's root) in a child process — with each
 * list of `calls` in turn, so `[[pattern], [title]]` is `name(pattern)(title)` — and kills it at the
 * deadline: a call that would hang (a backtracking pattern) fails the test instead of hanging the suite.
 * Resolves with the call's JSON value, or "timed out".
 */
export async function callWithDeadline(
  file: string,
  name: string,
  calls: unknown[][],
  deadlineMs: number,
): Promise<{ value: unknown } | "timed out"> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", CALL, `${ROOT}${file}`, name, JSON.stringify(calls)],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, deadlineMs);
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  clearTimeout(timer);
  if (timedOut) return "timed out";
  if (code !== 0) throw new Error(`the call exited with ${code}: ${stderr}`);
  return JSON.parse(stdout) as { value: unknown };
}
