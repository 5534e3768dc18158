import type { IncomingMessage, ServerResponse } from "node:http";
import type { Probot } from "probot";

type Handler = (req: IncomingMessage, res: ServerResponse) => boolean | void | Promise<boolean | void>;
type HandlerFactory = (
  app: Probot,
  options: { cwd: string; addHandler: (handler: Handler) => void },
) => Handler | Promise<Handler>;

type SetupAppFactory = (options: {
  host: string;
  port: number;
  log: unknown;
  updateEnv?: (env: Record<string, string>) => Record<string, string>;
}) => HandlerFactory;

/**
 * Probot's GitHub App registration (manifest) flow. Probot runs it from `run()` only, and its
 * package exports do not name the file, so it is loaded by path from the pinned probot version.
 */
export async function loadSetupAppFactory(): Promise<SetupAppFactory> {
  const probotIndex = import.meta.resolve("probot");
  const module = (await import(new URL("./apps/setup.js", probotIndex).href)) as { setupAppFactory: SetupAppFactory };
  return module.setupAppFactory;
}
