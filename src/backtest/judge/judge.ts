// The backtest's judge room: the agent that says whether a finding is one of the PR's real issues (Judge, this
// file) — its prompt, its answer's shape, the cache of its answers, and how it is built from the first
// configuration (prepareJudge). It imports the configurations room.

import { mkdir } from "node:fs/promises";
import type { Logger } from "pino";
import { z } from "zod";
import type { Agent } from "../../agents/types.js";
import { buildJudgePrompt, JUDGE_PROMPT_VERSION } from "./build-judge-prompt.js";
import { JudgeCache } from "./judge-cache.js";
import type { JudgeVerdict } from "./judge-verdict.js";

const answerSchema = z.object({
  same: z.boolean(),
  confidence: z.number().min(0).max(1).optional(),
  reason: z.string().optional(),
});

/**
 * Asks the configured agent, each question in a fresh session (never resumed: one answer cannot lean on
 * another), whether a finding and a real issue are the same underlying issue. The agent runs as the
 * read-only `verifier` role in an empty directory of its own, in the same sandbox as every agent turn.
 * Answers are cached (JudgeCache); an answer that is not the expected JSON counts as "not the same" and
 * is not cached, so a rerun asks again.
 */
export class Judge {
  /** Questions asked of the agent in this process (not those answered from the cache). */
  asked = 0;
  /** Questions answered in this process, from the cache or not. */
  answered = 0;
  spentUsd = 0;

  constructor(
    private readonly options: {
      agent: Agent;
      /** What identifies the judge's configuration in the cache key (agent, model, arguments). */
      identity: string;
      cache: JudgeCache;
      /** An empty directory the judge works in. */
      workDir: string;
      timeoutMs: number;
      log: Logger;
      signal?: AbortSignal;
    },
  ) {}

  /** Whether the question is answered from the cache (asking it costs nothing). */
  knows(finding: string, issue: string): boolean {
    return this.options.cache.get(this.#key(finding, issue)) !== undefined;
  }

  async same(finding: string, issue: string): Promise<JudgeVerdict> {
    const { agent, cache, workDir, timeoutMs, log, signal } = this.options;
    const key = this.#key(finding, issue);
    this.answered++;
    const cached = cache.get(key);
    if (cached) return { ...cached, costUsd: 0 };
    await mkdir(workDir, { recursive: true });
    this.asked++;
    const result = await agent.run({
      prompt: buildJudgePrompt(finding, issue),
      cwd: workDir,
      role: "verifier",
      timeoutMs,
      signal,
      scope: "backtest-judge",
    });
    const costUsd = result.usage.costUsd ?? 0;
    this.spentUsd += costUsd;
    const parsed = answerSchema.safeParse(result.json);
    if (!parsed.success) {
      log.warn(
        { answer: result.text.slice(0, 200) },
        "the judge's answer is not the expected JSON; counted as not the same",
      );
      return { same: false, confidence: 0, reason: "unreadable answer", costUsd };
    }
    const verdict: JudgeVerdict = {
      same: parsed.data.same,
      confidence: parsed.data.confidence ?? 1,
      reason: parsed.data.reason ?? "",
      costUsd,
    };
    await cache.put(key, verdict);
    return verdict;
  }

  #key(finding: string, issue: string): string {
    return JudgeCache.key([this.options.identity, JUDGE_PROMPT_VERSION, finding, issue]);
  }
}
