import { existsSync } from "node:fs";
import { ConfigError } from "./config/config-error.js";
import { readEnvConfig } from "./config/env-config.js";
import { createLogger } from "./logging/create-logger.js";
import { startServer } from "./server/start-server.js";

if (existsSync(".env")) process.loadEnvFile(".env");

try {
  const config = readEnvConfig();
  const log = createLogger({ level: config.logLevel, secrets: config.secrets });
  const running = await startServer(config, log);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      log.info({ signal }, "stopping");
      running.stop().then(
        () => process.exit(0),
        (error: unknown) => {
          log.error({ err: error }, "stop failed");
          process.exit(1);
        },
      );
    });
  }
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`no-mistakes cannot start. ${error.message}`);
  } else {
    console.error("no-mistakes failed to start:", error);
  }
  process.exit(1);
}
