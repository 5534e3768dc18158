// A bare Probot app that does nothing: same Server, same logger, same signature check, no handlers; and
// the same bench-only event-loop delay monitor as the app (BENCH_LOOP_DELAY_FILE), whose 10 ms timer
// costs both the same CPU.
import { Probot, ProbotOctokit, Server } from "probot";
import { readEnvConfig } from "../../src/config/env/env-config.js";
import { createLogger } from "../../src/logging/create-logger.js";
import { startLoopDelayMonitor } from "./loop-delay-monitor.js";

if (process.env.BENCH_LOOP_DELAY_FILE) startLoopDelayMonitor(process.env.BENCH_LOOP_DELAY_FILE);

const config = readEnvConfig();
const log = createLogger({ level: config.logLevel, secrets: config.secrets });
const app = config.app!;
const server = new Server({
  host: config.host,
  port: config.port,
  webhookPath: config.webhookPath,
  log,
  Probot: Probot.defaults({
    appId: app.appId,
    privateKey: app.privateKey,
    secret: app.webhookSecret,
    baseUrl: config.github.baseUrl,
    log,
    Octokit: ProbotOctokit,
  }),
});
await server.load(() => {});
const http = await server.start();
const address = http.address();
process.stderr.write(`LISTENING ${typeof address === "object" && address ? address.port : config.port}\n`);
process.once("SIGTERM", () => {
  void server.stop().finally(() => process.exit(0));
});
