import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BubblewrapSandbox } from "../../src/agents/sandbox/bubblewrap-sandbox.js";
import type { ExecutionResult } from "../../src/checks/index.js";
import { readEnvConfig } from "../../src/config/env/env-config.js";
import { listRunExecutions } from "../../src/db/executions.js";
import { Metrics } from "../../src/metrics/metrics.js";
import { recordExecution, type ExecutionRecord } from "../../src/pipeline/checks/record-execution.js";
import { createChecks } from "../../src/wiring/create-checks.js";
import { createRun } from "../helpers/run-fixture.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { sample } from "./sample.js";

/**
 * The repository's own code as Prometheus sees it: every recorded execution counted by kind and outcome,
 * timed when it ran, a setup as a cache hit or miss; every connection a setup's egress proxy refused.
 */

const result = (fields: Partial<ExecutionResult> = {}): ExecutionResult => ({
  exitCode: 0,
  signal: null,
  timedOut: false,
  durationMs: 1500,
  output: "ok\n",
  outputDigest: "d".repeat(64),
  ...fields,
});

describe("executions in /metrics (pglite)", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
  });
  afterAll(async () => {
    await database.dispose();
  });

  it("counts each recorded execution by kind and outcome, times those that ran, and counts setups' cache hits and misses", async () => {
    const metrics = new Metrics({ processMetrics: false });
    const deps = { db: database.handle.db, metrics };
    const runId = await createRun(database.handle.db);
    const record = (fields: Partial<ExecutionRecord>): ExecutionRecord => ({
      runId,
      headSha: "a".repeat(40),
      kind: "check",
      phase: "review",
      name: "tests",
      command: "npm test",
      outcome: "passed",
      ...fields,
    });
    await recordExecution(deps, record({ kind: "setup", name: "setup" }), result({ durationMs: 42_000 }));
    await recordExecution(deps, record({ kind: "setup", cached: true }), result({ durationMs: 0, output: "" }));
    await recordExecution(deps, record({ kind: "setup", cached: true }), result({ durationMs: 0, output: "" }));
    await recordExecution(deps, record({ outcome: "failed" }), result({ exitCode: 1, durationMs: 3_000 }));
    await recordExecution(deps, record({ kind: "reproducer", outcome: "reproduced" }), result({ exitCode: 1 }));
    await recordExecution(deps, record({ kind: "reproducer", outcome: "reproduced" }), result({ exitCode: 1 }));
    await recordExecution(deps, record({ kind: "reproducer", outcome: "broken" }), result({ timedOut: true }));
    expect(await listRunExecutions(database.handle.db, runId)).toHaveLength(7);

    const text = await metrics.text();
    expect(sample(text, 'executions_total{kind="setup",outcome="passed"}')).toBe(3);
    expect(sample(text, 'executions_total{kind="check",outcome="failed"}')).toBe(1);
    expect(sample(text, 'executions_total{kind="reproducer",outcome="reproduced"}')).toBe(2);
    expect(sample(text, 'executions_total{kind="reproducer",outcome="broken"}')).toBe(1);
    expect(sample(text, 'executions_total{kind="check",outcome="passed"}')).toBeUndefined();
    expect(sample(text, 'setup_cache_total{result="hit"}')).toBe(2);
    expect(sample(text, 'setup_cache_total{result="miss"}')).toBe(1);
    // a setup reused from the cache did not run: only the one that ran is timed
    expect(sample(text, 'execution_seconds_count{kind="setup"}')).toBe(1);
    expect(sample(text, 'execution_seconds_sum{kind="setup"}')).toBe(42);
    expect(sample(text, 'execution_seconds_bucket{le="30",kind="setup"}')).toBe(0);
    expect(sample(text, 'execution_seconds_bucket{le="60",kind="setup"}')).toBe(1);
    expect(sample(text, 'execution_seconds_count{kind="reproducer"}')).toBe(3);
    expect(sample(text, 'execution_seconds_sum{kind="check"}')).toBe(3);
    expect(sample(text, "egress_refusals_total")).toBe(0);
  });
});

describe("egress refusals in /metrics (real bwrap, the wiring's checks)", () => {
  let elsewhere: Server;
  let port: number;
  beforeAll(async () => {
    elsewhere = createServer((_req, res) => res.end("not a registry\n"));
    await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
    port = (elsewhere.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => elsewhere.close(() => resolve()));
    removeTempDirs();
  });

  it("counts every connection a setup's proxy refused, though its log names the host once", async () => {
    const metrics = new Metrics({ processMetrics: false });
    const dataDir = tempDir("nm-exec-metrics-");
    const config = readEnvConfig({ DATA_DIR: dataDir, AGENT: "fake", CHECKS_REGISTRIES: "127.0.0.1:1" });
    const checks = createChecks(config, new BubblewrapSandbox(), metrics)!;
    mkdirSync(checks.scratchDir, { recursive: true });
    const ws = join(tempDir("nm-exec-ws-"), "ws");
    mkdirSync(ws);
    // three plain-HTTP requests to a host that is not an allowed registry, one after another, through the proxy
    // the sandbox points HTTP_PROXY at
    const get = `require('http').get({host:p.hostname,port:p.port,path:'http://127.0.0.1:${port}/',headers:{host:'127.0.0.1:${port}'}},r=>{console.log(r.statusCode);r.resume();r.on('end',next)}).on('error',e=>{console.log(e.code);next()})`;
    const script = `const p=new URL(process.env.HTTP_PROXY);let n=0;function next(){if(n++<3){${get}}}next()`;
    const ran = await checks.runner.run({
      kind: "setup",
      workspace: ws,
      command: `node -e "${script}"`,
      registries: checks.registries,
      timeoutMs: 60_000,
    });
    expect(ran.output.trim().split("\n")).toEqual(["403", "403", "403"]);
    expect(ran.egress?.refused).toEqual([`127.0.0.1:${port}`]);
    expect(sample(await metrics.text(), "egress_refusals_total")).toBe(3);
  }, 60_000);
});
