import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentError } from "./agent-error.js";
import { runAgentProcess } from "./process/run-agent-process.js";

/** One CLI run of a probe, built for the probe's server and its scratch directory. */
export interface ProbeLaunch {
  command: string;
  args: string[];
  /** The CLI's complete environment (allowlisted), pointing it at the probe's server. */
  env: Record<string, string>;
  cwd: string;
  stdin: string;
}

/** What the probe server answers every model request: an error, so the CLI stops at its first one. */
const PROBE_REFUSAL = JSON.stringify({
  type: "error",
  error: { type: "invalid_request_error", message: "no-mistakes model probe: nothing is answered here" },
});

/**
 * The `model` a CLI names in its first model request, learnt by running it once against a server on
 * loopback that records that request and refuses it: no model is asked anything and nothing is spent.
 * The run sees only what `launch` gives it (an empty scratch directory, a placeholder key), never a PR.
 */
export async function probeSentModel(
  launch: (baseUrl: string, scratch: string) => Promise<ProbeLaunch>,
  options: { timeoutMs?: number; killGraceMs?: number } = {},
): Promise<string> {
  const seen: string[] = [];
  // The first model request is all the probe needs: the CLI is stopped there, not left to wind down.
  const stop = new AbortController();
  const server = createServer((req, res) => answer(req, res, seen, () => stop.abort()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const scratch = await mkdtemp(join(tmpdir(), "nm-model-probe-"));
  try {
    const call = await launch(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, scratch);
    const result = await runAgentProcess({
      ...call,
      timeoutMs: options.timeoutMs ?? 60_000,
      killGraceMs: options.killGraceMs,
      signal: stop.signal,
    });
    const sent = seen[0];
    if (sent !== undefined) return sent;
    const said = (result.stderr.trim() || result.stdout.trim()).slice(-300);
    // Out of time on a busy machine may pass; a CLI that ends without asking will do so again.
    if (result.timedOut)
      throw new AgentError("transient", `it made no model request in time${said ? `: ${said}` : ""}`);
    const exit = `exit ${result.exitCode ?? result.signal}`;
    throw new AgentError("spawn", `it made no model request (${exit})${said ? `: ${said}` : ""}`);
  } finally {
    server.closeAllConnections();
    server.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Connectivity probes get a 200; a model request is recorded (token counting is not one) and refused. */
function answer(req: IncomingMessage, res: ServerResponse, seen: string[], done: () => void): void {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    if (req.method !== "POST") return void res.writeHead(200).end();
    const model = modelOf(Buffer.concat(chunks).toString("utf8"));
    res.writeHead(400, { "content-type": "application/json" }).end(PROBE_REFUSAL);
    if (model !== undefined && !(req.url ?? "").includes("count_tokens")) {
      seen.push(model);
      done();
    }
  });
}

function modelOf(text: string): string | undefined {
  try {
    const model = (JSON.parse(text) as { model?: unknown } | null)?.model;
    return typeof model === "string" ? model : undefined;
  } catch {
    return undefined;
  }
}
