// The app exactly as `npm start` runs it (startServer with readEnvConfig), announcing its port on stderr.
import { readEnvConfig } from "../../src/config/env-config.js";
import { createLogger } from "../../src/logging/create-logger.js";
import { startServer } from "../../src/server/start-server.js";
import { applyGitHubPacingSetting } from "../lib/github-pacing.js";

applyGitHubPacingSetting();

const config = readEnvConfig();
const log = createLogger({ level: config.logLevel, secrets: config.secrets });
const running = await startServer(config, log);
process.stderr.write(`LISTENING ${running.port}\n`);
process.once("SIGTERM", () => {
  // Workers may sit in a long fake-agent turn; the bench does not wait for a graceful stop.
  setTimeout(() => process.exit(0), 3000).unref();
  running.stop().finally(() => process.exit(0));
});
