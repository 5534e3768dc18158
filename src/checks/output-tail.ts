import { createHash } from "node:crypto";

/** How much of a command's output is kept: its end, where test runners print failures and summaries. */
export const OUTPUT_TAIL_BYTES = 16 * 1024;

/** The last `maxBytes` of stdout then stderr (cut at a line start where one is near), and a digest of both. */
export function outputTail(
  stdout: string,
  stderr: string,
  maxBytes = OUTPUT_TAIL_BYTES,
): { output: string; digest: string } {
  const digest = createHash("sha256").update(stdout).update("\0").update(stderr).digest("hex");
  const both = stderr.trim() === "" ? stdout : stdout.trim() === "" ? stderr : `${stdout.trimEnd()}\n${stderr}`;
  const bytes = Buffer.from(both, "utf8");
  if (bytes.length <= maxBytes) return { output: both, digest };
  let tail = bytes
    .subarray(bytes.length - maxBytes)
    .toString("utf8")
    .replace(/^\uFFFD+/, "");
  const newline = tail.indexOf("\n");
  if (newline >= 0 && newline < 200) tail = tail.slice(newline + 1);
  return { output: `…\n${tail}`, digest };
}
