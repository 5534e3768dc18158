/*
 * The fake room: the agent without a model, for tests, benches and demos (AGENT=fake). This file plays a scenario
 * (fake-scenario.ts reads it) step by step, or finds nothing and changes nothing without one.
 */
import { createHash, randomUUID } from "node:crypto";
import { appendFile, mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve, isAbsolute, sep } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { runGit } from "../../git/run-git.js";
import { writeFileReplacing } from "../../system/write-file-replacing.js";
import { AgentError } from "../agent-error.js";
import { extractJson } from "../extract-json.js";
import { loadFakeScenario, type FakeScenario, type FakeStep } from "./fake-scenario.js";
import type { Agent, AgentResult, AgentRunOptions, PortableSessions, Role } from "../types.js";

export interface FakeAgentOptions {
  /** Scenario file; without one the reviewer finds nothing and the fixer changes nothing. */
  scenarioPath?: string;
  /** Where sessions and step counters live (like a CLI's config dir). */
  home: string;
  /** Appends one JSON line per call. */
  logPath?: string;
}

interface SessionFile {
  id: string;
  role: Role;
  prompts: string[];
}

const DEFAULT_ANSWERS: Record<Role, string> = {
  reviewer: JSON.stringify({ summary: "The fake agent found nothing to report.", findings: [], resolved: [] }),
  fixer: "The fake agent changed nothing.",
  verifier: JSON.stringify({ verdicts: [] }),
};

/**
 * A scripted agent for tests and demos. Sessions are files under `home`, so a resume works after a
 * restart exactly when the file is still there, as with the real CLIs.
 */
export class FakeAgent implements Agent {
  readonly name = "fake";
  readonly supportsResume = true;
  readonly portable: PortableSessions;
  #scenario: FakeScenario | undefined;

  constructor(private readonly options: FakeAgentOptions) {
    this.#scenario = options.scenarioPath ? loadFakeScenario(options.scenarioPath) : undefined;
    this.portable = {
      exportSession: async (sessionId) => {
        try {
          return await readFile(this.#sessionPath(sessionId));
        } catch {
          return undefined; // no such session (or not a session id): nothing to export
        }
      },
      importSession: async (sessionId, _cwd, state) => {
        const path = this.#sessionPath(sessionId);
        if (
          await readFile(path).then(
            () => true,
            () => false,
          )
        )
          return;
        await writeFileReplacing(path, state);
      },
    };
  }

  async run(options: AgentRunOptions): Promise<AgentResult> {
    if (options.signal?.aborted) throw new AgentError("cancelled", "fake agent: cancelled");
    // Picking a step and counting its use happen under one lock: two calls at once must not both
    // take the last use of a `times` step.
    const { step, session } = await withLock(this.#usesPath(), async () => {
      const step = await this.#pickStep(options);
      let session: SessionFile;
      if (options.sessionId) {
        if (step?.failResume) throw resumeFailed(options.sessionId);
        session = await this.#readSession(options.sessionId);
        if (session.role !== options.role) {
          throw new AgentError(
            "other",
            `fake agent: session ${session.id} belongs to the ${session.role}, not the ${options.role}`,
          );
        }
      } else {
        session = { id: randomUUID(), role: options.role, prompts: [] };
      }
      if (step) await this.#consume(step);
      return { step, session };
    });
    if (step?.delayMs) await wait(step.delayMs, options);
    if (step?.exitCode) throw new AgentError("other", `fake agent exited with code ${step.exitCode}`);
    for (const edit of step?.edits ?? []) await writeInside(options.cwd, edit);

    const text = step
      ? (step.text ?? (step.answer === undefined ? "" : JSON.stringify(step.answer)))
      : DEFAULT_ANSWERS[options.role];
    session.prompts.push(options.prompt);
    await this.#writeSession(session);
    const result: AgentResult = {
      text,
      json: extractJson(text),
      sessionId: session.id,
      resumed: options.sessionId !== undefined,
      usage: {
        tokensIn: Math.ceil(options.prompt.length / 4),
        tokensOut: Math.ceil(text.length / 4),
        costUsd: step?.costUsd ?? 0,
      },
    };
    if (this.options.logPath) {
      const line = {
        role: options.role,
        sessionAsked: options.sessionId ?? null,
        sessionReturned: session.id,
        resumed: result.resumed,
        turnsInSession: session.prompts.length,
        cwd: options.cwd,
        prompt: options.prompt,
      };
      await mkdir(dirname(this.options.logPath), { recursive: true });
      await appendFile(this.options.logPath, `${JSON.stringify(line)}\n`);
    }
    return result;
  }

  async #pickStep(options: AgentRunOptions): Promise<FakeStep | undefined> {
    if (!this.#scenario) return undefined;
    const uses = await this.#readUses();
    const index = this.#scenario.steps.findIndex(
      (step, i) =>
        (step.role === undefined || step.role === options.role) &&
        (step.match === undefined || options.prompt.includes(step.match)) &&
        (step.matchAll ?? []).every((m) => options.prompt.includes(m)) &&
        (step.times === undefined || (uses[i] ?? 0) < step.times),
    );
    if (index < 0) {
      throw new AgentError("other", `fake agent: no scenario step matches this ${options.role} prompt`);
    }
    return this.#scenario.steps[index];
  }

  async #consume(step: FakeStep): Promise<void> {
    if (step.times === undefined || !this.#scenario) return;
    const uses = await this.#readUses();
    const index = this.#scenario.steps.indexOf(step);
    uses[index] = (uses[index] ?? 0) + 1;
    await writeFileReplacing(this.#usesPath(), JSON.stringify(uses));
  }

  async #readUses(): Promise<Record<number, number>> {
    try {
      return JSON.parse(await readFile(this.#usesPath(), "utf8")) as Record<number, number>;
    } catch {
      return {}; // no step used yet
    }
  }

  async #readSession(id: string): Promise<SessionFile> {
    try {
      return JSON.parse(await readFile(this.#sessionPath(id), "utf8")) as SessionFile;
    } catch {
      throw resumeFailed(id);
    }
  }

  async #writeSession(session: SessionFile): Promise<void> {
    // Another worker process may read it at any moment (one home shared by a test's processes).
    await writeFileReplacing(this.#sessionPath(session.id), JSON.stringify(session));
  }

  #sessionPath(id: string): string {
    if (!/^[A-Za-z0-9-]+$/.test(id)) throw resumeFailed(id);
    return join(this.options.home, "sessions", `${id}.json`);
  }

  #usesPath(): string {
    const key = createHash("sha256")
      .update(resolve(this.options.scenarioPath ?? "none"))
      .digest("hex")
      .slice(0, 32);
    return join(this.options.home, `uses-${key}.json`);
  }
}

const locks = new Map<string, Promise<void>>();

/** Runs `fn` after every earlier call for the same key has finished (within this process). */
async function withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = locks.get(key) ?? Promise.resolve();
  const current = previous.then(fn);
  const done = current.then(
    () => undefined,
    () => undefined,
  );
  locks.set(key, done);
  try {
    return await current;
  } finally {
    if (locks.get(key) === done) locks.delete(key);
  }
}

function resumeFailed(id: string): AgentError {
  return new AgentError("resume-failed", `No conversation found with session ID: ${id}`);
}

async function wait(ms: number, options: AgentRunOptions): Promise<void> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    await sleep(ms, undefined, { signal });
  } catch {
    if (options.signal?.aborted) throw new AgentError("cancelled", "fake agent: cancelled");
    throw new AgentError("timeout", `fake agent: timed out after ${options.timeoutMs} ms`);
  }
}

async function writeInside(cwd: string, edit: NonNullable<FakeStep["edits"]>[number]): Promise<void> {
  const target = resolve(cwd, edit.path);
  const rel = relative(resolve(cwd), target);
  if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel))
    throw new AgentError("other", `fake agent: refusing to write outside the workspace: ${edit.path}`);
  await mkdir(dirname(target), { recursive: true });
  if (edit.symlink !== undefined) {
    await rm(target, { force: true });
    await symlink(edit.symlink, target);
  } else if (edit.gitlink !== undefined) {
    // As an agent running `git update-index` in its checkout would: the entry is in the index, its directory empty.
    await mkdir(target, { recursive: true });
    await runGit(["update-index", "--add", "--cacheinfo", `160000,${edit.gitlink},${rel.split(sep).join("/")}`], {
      cwd,
    });
  } else {
    await writeFile(target, edit.content ?? "");
  }
}
