import { createSandbox } from "../agents/create-agent.js";
import { createRoleAgents } from "../agents/create-role-agents.js";
import { ConfigError } from "../config/config-error.js";
import { dataDirProblem } from "../config/env/data-dir-problem.js";
import { readEnvConfig, type EnvConfig } from "../config/env/env-config.js";
import { privateKeyProblem } from "../config/env/private-key-problem.js";
import { AppSetupError, readAppSetup, type AppSetup } from "../github/read-app-setup.js";
import { createLogger } from "../logging/create-logger.js";
import { checkAgentSandbox } from "../agents/sandbox/check-agent-sandbox.js";
import { apiOf, checkAgentModel } from "./check-agent-model.js";
import { checkDatabase } from "./check-database.js";
import { checkInstallations } from "./check-installations.js";
import { checkModelKey } from "./check-model-key.js";
import { checkOpenCodeBinary, checkOpenCodeKey } from "./check-opencode.js";
import { OpenCodeAgent } from "../agents/opencode/index.js";
import { checkWebhookConfig } from "./check-webhook-config.js";
import { fail, pass, type DoctorCheck } from "./doctor-check.js";
import { readWantedAccess } from "./read-wanted-access.js";

/**
 * Every check `npm run doctor` makes, in order, each result handed to `report` as it is known:
 * 1. config, 2. DATA_DIR, 3. the private key, 4. GitHub as the App, 5. its webhook settings,
 * 6. its installations, 7. the sandbox, 8. the model each agent's CLI sends, 9. the model keys, 10. the database.
 */
export async function runChecks(env: NodeJS.ProcessEnv, report: (check: DoctorCheck) => void): Promise<boolean> {
  let ok = true;
  const add = (check: DoctorCheck) => {
    ok &&= check.ok;
    report(check);
  };
  // 1. config
  let config: EnvConfig;
  try {
    config = readEnvConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const problem of error.problems) add(fail("config", problem, "correct it in .env (see .env.example)"));
    return false;
  }
  add(
    pass(
      "config",
      `AGENT=${config.agent.name}, ROLE=${config.role}, ${config.app ? `APP_ID=${config.app.appId}` : "no App yet"}`,
    ),
  );
  // 2. DATA_DIR
  const dataDir = dataDirProblem(config.dataDir);
  add(
    dataDir
      ? fail("DATA_DIR", dataDir, "set DATA_DIR to a directory this user may write")
      : pass("DATA_DIR", `${config.dataDir} is writable`),
  );
  if (!config.app) {
    add(fail("GitHub App", "APP_ID is not set", "run npm start and register the App at the setup URL it prints"));
    add(await checkDatabase(config));
    return false;
  }
  // 3. the private key
  const key = privateKeyProblem(config.app.privateKey, "PRIVATE_KEY");
  add(
    key ? fail("private key", key, "use the .pem file GitHub gave you") : pass("private key", "signs a GitHub App JWT"),
  );
  // 4–6. GitHub, as the App
  if (!key) for (const check of await checkGitHub(config)) add(check);
  // 7. the sandbox
  add(await checkSandbox(config));
  // 8–9. the model each agent's CLI sends, then the keys (asked about that model)
  const sent: Partial<Record<"anthropic" | "openai" | "gemini", string>> = {};
  for (const agent of agentsOf(config)) {
    if (agent instanceof OpenCodeAgent) add(await checkOpenCodeBinary(agent));
    const result = await checkAgentModel(agent, config.agent.sandbox);
    if (result) add(result.check);
    // OpenCode's model goes to its own provider, checked with its key below
    if (result?.model && agent.name !== "opencode") sent[apiOf(agent.name)] ??= result.model.sent;
  }
  for (const provider of providersOf(config)) add(await checkModelKey(provider, config.agent, sent[provider]));
  if (Object.values(config.agent.roles).some((choice) => choice.name === "opencode"))
    add(await checkOpenCodeKey(config.agent));
  // 10. the database
  add(await checkDatabase(config));
  return ok;
}

async function checkGitHub(config: EnvConfig): Promise<DoctorCheck[]> {
  const app = config.app!;
  let setup: AppSetup;
  try {
    setup = await readAppSetup({ appId: app.appId, privateKey: app.privateKey, baseUrl: config.github.baseUrl });
  } catch (error) {
    if (!(error instanceof AppSetupError)) throw error;
    const where = config.github.baseUrl ?? "https://api.github.com";
    if (error.kind === "auth")
      return [
        fail(
          "GitHub",
          `${error.step} refused the App's token (401)`,
          "APP_ID and PRIVATE_KEY must be the same App's (its settings page shows the ID; generate a new key there if lost)",
        ),
      ];
    if (error.kind === "network")
      return [
        fail("GitHub", `${where} did not answer ${error.step} (${error.message})`, "check the network (or GHE_HOST)"),
      ];
    return [fail("GitHub", `${error.step} answered ${error.status} (${error.message})`, "check APP_ID and GHE_HOST")];
  }
  const web = `${config.github.protocol}://${config.github.host}`;
  const owner = setup.app.organization ? `/organizations/${setup.app.organization}` : "";
  const settingsUrl = `${web}${owner}/settings/apps/${setup.app.slug}`;
  return [
    pass("GitHub", `reached as the App ${setup.app.name} (${setup.app.htmlUrl})`),
    ...checkWebhookConfig(setup.hook, config, settingsUrl),
    ...checkInstallations(setup.installations, readWantedAccess(), { htmlUrl: setup.app.htmlUrl, settingsUrl }),
  ];
}

async function checkSandbox(config: EnvConfig): Promise<DoctorCheck> {
  try {
    const sandbox = createSandbox(config);
    const status = await checkAgentSandbox(config, sandbox, createLogger({ level: "silent" }));
    if (status === "off") return pass("agent sandbox", "off (AGENT_SANDBOX=off: agents run unconfined)");
    const bound = sandbox.workspaceBound;
    if (bound?.kind === "sampled")
      return pass(
        "agent sandbox",
        `${status}; what a turn writes is only measured every 2 s, not refused at AGENT_MAX_WORKSPACE_MB: this host cannot mount an overlay in a user namespace (${bound.reason})`,
      );
    return pass("agent sandbox", bound ? `${status}; writes refused past AGENT_MAX_WORKSPACE_MB` : status);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const [why, , ...fixes] = error.problems;
    return fail("agent sandbox", why ?? error.message, fixes.join("; "));
  }
}

/** The agents turns run with: each distinct agent and model the roles name. */
function agentsOf(config: EnvConfig) {
  return [...new Set(Object.values(createRoleAgents(config, createSandbox(config))))];
}

function providersOf(config: EnvConfig): ("anthropic" | "openai" | "gemini")[] {
  const agents = new Set(Object.values(config.agent.roles).map((choice) => choice.name));
  return [
    ...(agents.has("claude") ? (["anthropic"] as const) : []),
    ...(agents.has("codex") ? (["openai"] as const) : []),
    ...(agents.has("gemini") ? (["gemini"] as const) : []),
  ];
}
