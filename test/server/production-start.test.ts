import { execFileSync, spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { copyFileSync, cpSync, existsSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { imageCmd, imageEnv } from "../helpers/dockerfile.js";
import { freePort } from "../helpers/free-port.js";
import { appProcess, waitForHttp, type AppProcess } from "../helpers/start-app-process.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const running: AppProcess[] = [];
let packageRoot = "";

/**
 * The image's layout, made from this checkout: package.json, app.yml, drizzle/, node_modules/ and the
 * output of `npm run build` in dist/ — no src/, no tsconfig. A lookup that only works from src/ (an asset
 * not copied, a path that assumes the source tree) fails here.
 */
beforeAll(() => {
  packageRoot = tempDir("nm-prod-");
  for (const file of ["package.json", "app.yml"]) copyFileSync(join(ROOT, file), join(packageRoot, file));
  cpSync(join(ROOT, "drizzle"), join(packageRoot, "drizzle"), { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(packageRoot, "node_modules"), "dir");
  execFileSync(process.execPath, [join(ROOT, "scripts/build.mjs"), join(packageRoot, "dist")], { stdio: "pipe" });
}, 180_000);
afterEach(async () => {
  for (const app of running.splice(0)) await app.stop();
});
afterAll(() => removeTempDirs());

/** `node dist/index.js` (what `npm run start:prod` and the image run): plain node, no TypeScript loader. */
function startCompiled(env: Record<string, string>): AppProcess {
  const child = spawn(process.execPath, ["dist/index.js"], {
    cwd: packageRoot,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const app = appProcess(child);
  running.push(app);
  return app;
}

/**
 * The image's own start: its CMD, with its ENV (DATA_DIR and ENV_FILE moved from /data into `dataDir`, and
 * the server on 127.0.0.1), from the image's layout.
 */
function startAsImage(dataDir: string, port: number, env: Record<string, string> = {}): AppProcess {
  const [command, ...args] = imageCmd();
  const moved = Object.fromEntries(
    Object.entries(imageEnv()).map(([key, value]) => [key, value.replace(/^\/data(?=\/|$)/, dataDir)]),
  );
  const child = spawn(command === "node" ? process.execPath : command!, args, {
    cwd: packageRoot,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      ...moved,
      HOST: "127.0.0.1",
      PORT: String(port),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const app = appProcess(child);
  running.push(app);
  return app;
}

describe("production start (npm run build, node dist/index.js)", { timeout: 120_000 }, () => {
  it("finds every file it looks up relative to its own modules", () => {
    const script = `
      const [sandbox, claude, codex, migrate, version] = await Promise.all([
        import("./dist/agents/sandbox/bubblewrap-sandbox.js"), import("./dist/agents/claude/claude-code.js"),
        import("./dist/agents/codex/codex.js"), import("./dist/db/migrate-database.js"), import("./dist/version.js"),
      ]);
      console.log(JSON.stringify({
        bridge: sandbox.MODEL_BRIDGE_SCRIPT, claude: claude.DEFAULT_CLAUDE_CLI, codex: codex.DEFAULT_CODEX_CLI,
        migrations: migrate.migrationsFolder, version: version.VERSION,
      }));`;
    const paths = JSON.parse(
      execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: packageRoot, encoding: "utf8" }),
    ) as Record<"bridge" | "claude" | "codex" | "migrations" | "version", string>;

    expect(paths.bridge).toBe(join(packageRoot, "dist/agents/sandbox/model-bridge.mjs"));
    expect(paths.claude).toBe(join(packageRoot, "node_modules/.bin/claude"));
    expect(paths.codex).toBe(join(packageRoot, "node_modules/.bin/codex"));
    expect(paths.migrations).toBe(join(packageRoot, "drizzle"));
    for (const path of [paths.bridge, paths.claude, paths.codex, join(paths.migrations, "meta/_journal.json")]) {
      expect(existsSync(path), path).toBe(true);
    }
    expect(paths.version).toBe(
      (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version,
    );
  });

  it("runs git through its launcher process, a script beside the compiled module", () => {
    const script = `
      const { runGit } = await import("./dist/git/run-git.js");
      const { stdout } = await runGit(["--version"], { cwd: process.cwd() });
      console.log(stdout.trim());`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: packageRoot,
      encoding: "utf8",
    });
    expect(existsSync(join(packageRoot, "dist/system/launcher-process.mjs"))).toBe(true);
    expect(out.trim()).toMatch(/^git version \d/);
  });

  it("serves /health on a migrated embedded database in setup mode", async () => {
    const port = await freePort();
    const dataDir = join(tempDir(), "data");
    const app = startCompiled({ PORT: String(port), DATA_DIR: dataDir });

    const health = await waitForHttp(`http://localhost:${port}/health`, app);

    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ mode: "setup", database: { kind: "pglite" } }); // liveness; the database is checked below
    expect(await app.stop()).toBe(0);

    // Every committed migration was applied: drizzle/ was found from dist/db/.
    const journal = JSON.parse(readFileSync(join(ROOT, "drizzle/meta/_journal.json"), "utf8")) as {
      entries: unknown[];
    };
    const db = new PGlite(join(dataDir, "pglite"));
    try {
      const { rows } = await db.query<{ n: number }>("select count(*)::int as n from drizzle.__drizzle_migrations");
      expect(rows[0]?.n).toBe(journal.entries.length);
    } finally {
      await db.close();
    }
  });

  it("the image without APP_ID (NODE_ENV=production): serves the setup flow, saves the App in ENV_FILE on its volume, and the next start is the App", async () => {
    expect(imageEnv()).toMatchObject({ NODE_ENV: "production", DATA_DIR: "/data", ENV_FILE: "/data/.env" });
    const dataDir = join(tempDir(), "data");
    const port = await freePort();
    const app = startAsImage(dataDir, port);
    const base = `http://127.0.0.1:${port}`;

    expect(await (await waitForHttp(`${base}/health`, app)).json()).toMatchObject({ mode: "setup" });
    const code = /\/probot\?setup_code=([0-9a-f]{64}) in your browser/.exec(app.output())?.[1];
    expect(code, app.output()).toBeDefined();
    const page = await fetch(`${base}/probot?setup_code=${code}`, { redirect: "manual" });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("no-mistakes");
    const cookie = page.headers
      .getSetCookie()
      .find((c) => c.startsWith("no_mistakes_setup="))!
      .split(";")[0]!;

    // The App's credentials, as the setup flow's import page posts them: saved in ENV_FILE, for the owner only.
    const { privateKey } = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      privateKeyEncoding: { type: "pkcs1", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    });
    const imported = await fetch(`${base}/probot/import`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, origin: base },
      body: JSON.stringify({ appId: "4242", pem: privateKey, webhook_secret: "webhook-secret-from-github" }),
    });
    expect(imported.status).toBe(200);
    const envFile = join(dataDir, ".env");
    expect(readFileSync(envFile, "utf8")).toMatch(/^APP_ID=4242$/m);
    expect(statSync(envFile).mode & 0o777).toBe(0o600);
    expect(await app.stop()).toBe(0);

    // The container starts again on the same volume: registered.
    const scenario = join(tempDir(), "scenario.json");
    writeFileSync(scenario, JSON.stringify({ steps: [] }));
    const again = startAsImage(dataDir, port, {
      AGENT: "fake",
      FAKE_AGENT_SCENARIO: scenario,
      REDELIVER_INTERVAL: "off",
    });
    expect(await (await waitForHttp(`${base}/health`, again)).json()).toMatchObject({ mode: "app", role: "all" });
    expect(again.output()).not.toContain("register the GitHub App");
  });

  it("in app mode starts its worker process from dist/ on the embedded database, and stops it with itself", async () => {
    const port = await freePort();
    const { privateKey } = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      privateKeyEncoding: { type: "pkcs1", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    });
    const app = startCompiled({
      PORT: String(port),
      DATA_DIR: join(tempDir(), "data"),
      APP_ID: "1",
      PRIVATE_KEY: privateKey,
      WEBHOOK_SECRET: "production-start-secret",
      AGENT: "fake",
      REDELIVER_INTERVAL: "off",
      WORKER_IDLE_EXIT: "off", // started at once, not when a job is queued
    });
    await waitForHttp(`http://localhost:${port}/health`, app);
    const deadline = Date.now() + 60_000;
    let workers: string | undefined;
    while (Date.now() < deadline && workers !== "running") {
      workers = ((await (await fetch(`http://localhost:${port}/health`)).json()) as { workers?: string }).workers;
      if (workers !== "running") await new Promise((r) => setTimeout(r, 200));
    }
    expect(workers, app.output()).toBe("running");
    expect(app.output()).toContain("worker process ready");
    expect(await app.stop()).toBe(0);
  });
});
