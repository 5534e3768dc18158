import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createMetricsHandler } from "../../src/metrics/create-metrics-handler.js";
import { Metrics } from "../../src/metrics/metrics.js";
import { startMetrics, type StartedMetrics } from "../../src/metrics/start-metrics.js";
import { captureLogger } from "../helpers/capture-logger.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";
import { sample } from "./sample.js";

const TOKEN = "s3cret-metrics-token-0123456789";
const PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
const servers: Server[] = [];

/** A handler on a server of its own, with Probot's fall-through (an unhandled request gets 404). */
async function serve(handler: ReturnType<typeof createMetricsHandler>): Promise<string> {
  const server = createServer(
    (req, res) => void handler(req, res).then((handled) => handled || res.writeHead(404).end()),
  );
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterAll(async () => {
  for (const s of servers) await new Promise((r) => s.close(r));
});

describe("createMetricsHandler with a token (the main port)", () => {
  const metrics = new Metrics();
  let base: string;
  beforeAll(async () => {
    base = await serve(createMetricsHandler(metrics, { token: TOKEN }));
    metrics.refusals.inc({ kind: "unauthorized_command" }, 3);
  });

  it.each([
    ["no Authorization header", {}],
    ["a wrong token", { authorization: "Bearer not-the-token-0123456789" }],
    ["the token with a prefix cut", { authorization: `Bearer ${TOKEN.slice(1)}` }],
    ["the token as Basic credentials", { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString("base64")}` }],
  ])("answers 401 to %s, without any metric in the body", async (_name, headers) => {
    const res = await fetch(`${base}/metrics`, { headers });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
    const body = await res.text();
    expect(body).toBe("unauthorized\n");
  });

  it("answers the right token with the exposition text and the values recorded", async () => {
    const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(PROMETHEUS_TEXT);
    const text = await res.text();
    expect(sample(text, 'refusals_total{kind="unauthorized_command"}')).toBe(3);
    expect(text).toContain("# TYPE webhook_ack_seconds histogram");
    expect(sample(text, "process_cpu_user_seconds_total")).toBeGreaterThan(0); // the process metrics are on this registry
  });

  it("leaves every other path and method to the next handler", async () => {
    expect((await fetch(`${base}/health`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    expect(
      (await fetch(`${base}/metrics`, { method: "POST", headers: { authorization: `Bearer ${TOKEN}` } })).status,
    ).toBe(404);
  });
});

describe("startMetrics", () => {
  let database: TestDatabase;
  let started: StartedMetrics | undefined;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
  });
  afterEach(async () => {
    await started?.stop();
    started = undefined;
  });
  afterAll(async () => {
    await database.dispose();
  });

  it("serves nothing on the main port when neither METRICS_TOKEN nor METRICS_PORT is set", async () => {
    const { log, lines } = captureLogger();
    started = await startMetrics({ config: {}, log, database: database.handle, webhookPath: "/api/github/webhooks" });
    const base = await serve(started.handler);
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    expect(started.port).toBeUndefined();
    expect(lines()).toContainEqual(
      expect.objectContaining({ msg: "metrics not served (set METRICS_TOKEN or METRICS_PORT to expose /metrics)" }),
    );
    // Nobody can read them: Node's process metrics (whose lag monitor wakes the loop every 10 ms) are off,
    // and webhook requests are not timed or counted.
    const server = createServer((_req, res) => void res.writeHead(200).end());
    servers.push(server);
    started.observe(server);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const webhook = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/github/webhooks`;
    const answer = await fetch(webhook, { method: "POST", headers: { "x-github-event": "ping" }, body: "{}" });
    expect(answer.status).toBe(200);
    const text = await started.metrics.text();
    expect(text).not.toMatch(/^webhook_deliveries_total\{/m);
    expect(text).toMatch(/^webhook_ack_seconds_count 0$/m);
    expect(text).toContain("webhook_ack_seconds");
    expect(text).not.toContain("process_cpu_user_seconds_total");
    expect(text).not.toContain("nodejs_eventloop_lag");
  });

  it("serves /metrics without a token on a listener of its own (METRICS_PORT), and not on the main port", async () => {
    const { log, lines } = captureLogger();
    const backlog = { backlog: () => 7 };
    started = await startMetrics({
      config: { server: { port: 0, host: "127.0.0.1" } },
      log,
      database: database.handle,
      webhookPath: "/api/github/webhooks",
      intake: () => backlog,
    });
    expect(started.port).toBeGreaterThan(0);
    started.metrics.fixPushes.inc({ outcome: "accepted" });

    const res = await fetch(`http://127.0.0.1:${started.port}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(PROMETHEUS_TEXT);
    const text = await res.text();
    expect(sample(text, "intake_backlog")).toBe(7);
    // Served: Node's process metrics too. The CPU counter counts from its registration, which on a
    // busy machine can be 0 at the first scrape: its presence is what says the series is served.
    expect(sample(text, "process_cpu_user_seconds_total")).toBeGreaterThanOrEqual(0);
    expect(sample(text, "process_start_time_seconds")).toBeGreaterThan(0);
    expect(text).toContain("nodejs_eventloop_lag_p99_seconds");
    expect(sample(text, 'fix_pushes_total{outcome="accepted"}')).toBe(1);
    expect(text).not.toContain("queue_jobs{"); // no queue started: no queue series
    expect((await fetch(`http://127.0.0.1:${started.port}/health`)).status).toBe(404);
    expect(lines()).toContainEqual(
      expect.objectContaining({ msg: "metrics listening", port: started.port, host: "127.0.0.1" }),
    );

    const main = await serve(started.handler);
    expect((await fetch(`${main}/metrics`)).status).toBe(404); // METRICS_PORT alone keeps the main port closed

    const port = started.port;
    await started.stop();
    started = undefined;
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });

  it("with both, the main port needs the token and the listener does not", async () => {
    started = await startMetrics({
      config: { token: TOKEN, server: { port: 0, host: "127.0.0.1" } },
      log: captureLogger().log,
      database: database.handle,
      webhookPath: "/api/github/webhooks",
    });
    const main = await serve(started.handler);
    expect((await fetch(`${main}/metrics`)).status).toBe(401);
    expect((await fetch(`${main}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${started.port}/metrics`)).status).toBe(200);
  });
});
