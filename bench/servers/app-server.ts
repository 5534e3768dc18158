// The app exactly as `npm start` runs it (startServer with readEnvConfig), announcing its port on stderr.
// GitHub's client-side write pacing is off through the preload bench/servers/pacing-off.ts (startChild).
// Bench-only additions: BENCH_LOOP_DELAY_FILE=<path> measures the event-loop delay (see
// loop-delay-monitor.ts); SIGTERM stops the app gracefully (running turns get STOP_GRACE) and exits.
import { readEnvConfig } from "../../src/config/env/env-config.js";
import { createLogger } from "../../src/logging/create-logger.js";
import { startServer } from "../../src/wiring/start-server.js";
import { startLoopDelayMonitor } from "./loop-delay-monitor.js";

if (process.env.BENCH_LOOP_DELAY_FILE) startLoopDelayMonitor(process.env.BENCH_LOOP_DELAY_FILE);

const config = readEnvConfig();
const log = createLogger({ level: config.logLevel, secrets: config.secrets });
const running = await startServer(config, log);
process.stderr.write(`LISTENING ${running.port}\n`);
process.once("SIGTERM", () => {
  running.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`stop failed: ${(error as Error).stack ?? String(error)}\n`);
      process.exit(1);
    },
  );
});
