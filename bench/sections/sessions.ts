/**
 * 8. What a PR's reviews cost in model input, resumed session vs cold. The real app (in this process:
 * handlers, queue, worker, pipeline; the GitHub stand-in over nock; a git remote on disk) drives the real
 * Claude Code CLI, sandboxed as the app does by default, against an API-like fake model server
 * (test/helpers/api-like-anthropic.ts) that bills every request as the API's prompt cache would.
 * One generated repository (~20 files, ~4,000 lines of TypeScript, seeded) and one PR: it is opened with
 * push 1 and gets pushes 2..N (each 1–3 files, 10–80 lines). Two arms with the same scripted model:
 * RESUMED (the app as shipped: later pushes reviewed incrementally, resuming the reviewer's session) and
 * COLD (repository config `review.session: cold`: every review is a fresh session, and a fresh session's
 * prompt stands alone — the whole PR's diff, the ledger, the last summary — as `review --full` would send).
 * Every turn the model reads one file of the diff (one Read tool call), then answers a fixed JSON.
 * Billing: warm = the cache as the requests left it (they came seconds apart); expired = the same
 * requests replayed with the cache emptied before every push. Then a long RESUMED run (100 pushes,
 * 12 in smoke): largest request, 400 "prompt is too long" answers, the turns' session modes.
 * Then the 10-push comparison again with the real Codex CLI against an API-like OpenAI server
 * (test/helpers/api-like-openai.ts; BENCH_SESSIONS_CODEX=off leaves it out). Then the same with the real
 * Gemini CLI against an API-like Gemini server (test/helpers/api-like-gemini.ts; BENCH_SESSIONS_GEMINI=off
 * leaves it out) and with the real OpenCode CLI (its Anthropic provider) against the API-like Anthropic server
 * (BENCH_SESSIONS_OPENCODE=off leaves it out). BENCH_SESSIONS_ONLY=gemini or =opencode runs only that one's
 * comparison (BENCH_SESSIONS_GEMINI=only as well).
 * BENCH_SESSIONS_DUMP=<dir> writes every model request's body there, to see what changes between pushes.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import nock from "nock";
import { ClaudeCodeAgent } from "../../src/agents/claude/claude-code.js";
import { CodexAgent } from "../../src/agents/codex/codex.js";
import { GeminiAgent } from "../../src/agents/gemini/index.js";
import { OpenCodeAgent } from "../../src/agents/opencode/index.js";
import { DEFAULT_SESSION_BUDGET_TOKENS } from "../../src/config/env/agent-defaults.js";
import type { Agent } from "../../src/agents/types.js";
import {
  PrefixCache,
  startApiLikeAnthropicServer,
  tokensOf,
  type AccountedRecord,
  type ApiLikeAnthropicServer,
} from "../../test/helpers/api-like-anthropic.js";
import { startApiLikeGeminiServer } from "../../test/helpers/api-like-gemini.js";
import { startApiLikeOpenAIServer } from "../../test/helpers/api-like-openai.js";
import type { FakeGeminiReply, GeminiRequestBody } from "../../test/helpers/fake-gemini-server.js";
import { lastToolResult, messagesText, type FakeReply } from "../../test/helpers/fake-anthropic-server.js";
import type { FakeReply as OpenAIReply, ResponsesBody } from "../../test/helpers/fake-openai-server.js";
import { FlowFixture } from "../../test/helpers/flow-fixture.js";
import { seededRandom } from "../../test/helpers/seeded-random.js";
import { createTestDatabase } from "../../test/helpers/test-database.js";
import { removeTempDirs } from "../../test/helpers/temp-dir.js";
import { SMOKE, emitResult, round } from "../lib/common.js";

// BENCH_SESSIONS_LONG_PUSHES shortens the long run (a quicker full run of the 10-push comparisons).
const cfg = SMOKE
  ? { pushes: 3, longPushes: 12 }
  : { pushes: 10, longPushes: Number(process.env.BENCH_SESSIONS_LONG_PUSHES) || 100 };
const SEED = 2512;
/** $ per million input tokens: Sonnet-like for Claude, gpt-5-like for Codex (OpenAI charges nothing extra for a cache write). */
const PRICES = {
  claude: { input: 3, write: 3.75, read: 0.3 },
  codex: { input: 1.25, write: 1.25, read: 0.125 },
  // gemini-2.5-pro up to 200k tokens; the implicit cache charges nothing to write
  gemini: { input: 1.25, write: 1.25, read: 0.125 },
  opencode: { input: 3, write: 3.75, read: 0.3 },
};
type Provider = keyof typeof PRICES;
const ANSWER = JSON.stringify({ summary: "Reviewed the change; nothing to report.", findings: [], resolved: [] });

// ---- the generated repository and its pushes -------------------------------------------------------
const VERBS = ["load", "parse", "merge", "render", "collect", "resolve", "filter", "index", "score", "format"];
const NOUNS = ["Widget", "Order", "Invoice", "Ledger", "Session", "Batch", "Report", "Account", "Quota", "Route"];
const FIELDS = ["count", "total", "weight", "priority", "offset", "limit", "retries", "size"];

function generator(seed: number) {
  const rand = seededRandom(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
  let serial = 0;
  /** One exported function, 10–24 lines. */
  const fn = (): string[] => {
    const name = `${pick(VERBS)}${pick(NOUNS)}${++serial}`;
    const field = pick(FIELDS);
    const other = pick(FIELDS);
    const lines = [
      `/** ${name}: ${pick(VERBS)}s each item's ${field} against the ${other} limit. */`,
      `export function ${name}(items: readonly Item[], options: Options = {}): Item[] {`,
      `  const limit = options.${other} ?? ${int(2, 500)};`,
      `  const out: Item[] = [];`,
      `  for (const item of items) {`,
      `    if (item.${field} > limit) continue;`,
    ];
    for (let i = int(1, 12); i > 0; i--)
      lines.push(
        pick([
          `    if (item.${pick(FIELDS)} === ${int(0, 99)}) out.push({ ...item, ${pick(FIELDS)}: ${int(0, 9)} });`,
          `    const ${pick(FIELDS)}${i} = Math.min(item.${pick(FIELDS)}, limit - ${int(1, 40)});`,
          `    options.log?.(\`${name}: \${item.id} ${pick(FIELDS)}=\${item.${pick(FIELDS)}}\`);`,
          `    if (out.length >= ${int(10, 1000)}) break;`,
        ]),
      );
    lines.push(`    out.push({ ...item, ${field}: item.${field} + ${int(1, 9)} });`, `  }`, `  return out;`, `}`, ``);
    return lines;
  };
  const header = (i: number): string[] => [
    `import type { Item, Options } from "./types${i % 3}.js";`,
    ``,
    `/** Module ${i} of the widgets service: ${pick(VERBS)} and ${pick(VERBS)} ${pick(NOUNS).toLowerCase()}s. */`,
    ``,
  ];
  return { rand, int, fn, header };
}

type Files = Map<string, string[][]>; // path → chunks (header, then functions)
const render = (chunks: string[][]) => chunks.flat().join("\n") + "\n";

/** ~20 files, ~200 lines each, and `pushes` edits of 1–3 files, 10–80 changed lines in all. */
function buildScenario(seed: number, pushes: number) {
  const g = generator(seed);
  const files: Files = new Map();
  for (let i = 0; i < 20; i++) {
    const chunks = [g.header(i)];
    let lines = 4;
    while (lines < 200) {
      const f = g.fn();
      chunks.push(f);
      lines += f.length;
    }
    files.set(`src/module${String(i).padStart(2, "0")}.ts`, chunks);
  }
  const base = Object.fromEntries([...files].map(([p, c]) => [p, render(c)]));
  const edits: Array<Record<string, string>> = [];
  for (let p = 0; p < pushes; p++) {
    const budget = g.int(10, 80);
    const nFiles = g.int(1, 3);
    const paths = [...files.keys()].sort(() => g.rand() - 0.5).slice(0, nFiles);
    const edit: Record<string, string> = {};
    for (const path of paths) {
      const chunks = files.get(path)!;
      let left = Math.max(10, Math.round(budget / nFiles));
      // Replace one function, then add new ones until about `left` lines changed.
      const at = 1 + Math.floor(g.rand() * (chunks.length - 1));
      left -= chunks[at]!.length;
      const added = [g.fn()];
      left -= added[0]!.length;
      while (left > 10) {
        const f = g.fn();
        added.push(f);
        left -= f.length;
      }
      chunks.splice(at, 1, ...added);
      edit[path] = render(chunks);
    }
    edits.push(edit);
  }
  return { base, edits, lines: Object.values(base).reduce((n, t) => n + t.split("\n").length - 1, 0) };
}

// ---- the scripted model ------------------------------------------------------------------------------
/** A new prompt → read one file of its diff; the file read → the fixed answer. */
function responder(workspace: () => string) {
  return ({ body }: { body: Parameters<typeof messagesText>[0] }): FakeReply => {
    if (lastToolResult(body)) return { text: ANSWER, outputTokens: tokensOf(ANSWER.length) };
    const last = body.messages[body.messages.length - 1]!;
    const text = messagesText({ ...body, messages: [last] });
    const path = /^diff --git a\/\S+ b\/(\S+)/m.exec(text)?.[1] ?? /^\+\+\+ b\/(\S+)/m.exec(text)?.[1];
    if (!path) return { text: ANSWER, outputTokens: tokensOf(ANSWER.length) };
    const ws = /Working directory: (\S+)/.exec(messagesText(body))?.[1] ?? workspace();
    return { toolUse: { name: "Read", input: { file_path: join(ws, path) } }, outputTokens: 40 };
  };
}

/** The same script for OpenCode: its read tool is `read`, with `filePath`. */
function openCodeResponder(workspace: () => string) {
  const claude = responder(workspace);
  return (call: { body: Parameters<typeof messagesText>[0] }): FakeReply => {
    const reply = claude(call);
    if (!("toolUse" in reply)) return reply;
    return { ...reply, toolUse: { name: "read", input: { filePath: reply.toolUse.input.file_path } } };
  };
}

/** The same script for Codex: a new prompt → `cat` one file of its diff (exec_command); its output → the answer. */
function codexReply(body: ResponsesBody): OpenAIReply {
  const input = body.input ?? [];
  const last = input[input.length - 1];
  const answer = { text: ANSWER, usage: { input: 0, output: tokensOf(ANSWER.length) } };
  if (!last || last.type === "function_call_output") return answer;
  const text = JSON.stringify(last).replaceAll("\\n", "\n");
  const path = /^diff --git a\/\S+ b\/(\S+)/m.exec(text)?.[1] ?? /^\+\+\+ b\/(\S+)/m.exec(text)?.[1];
  return path ? { shell: `cat ${path}`, usage: { input: 0, output: 40 } } : answer;
}

/** The same script for Gemini CLI: a new prompt → read_file one file of its diff; the file read → the answer. */
function geminiReply(body: GeminiRequestBody): FakeGeminiReply {
  const contents = body.contents ?? [];
  const last = contents[contents.length - 1];
  const answer = { text: ANSWER, usage: { prompt: 0, candidates: tokensOf(ANSWER.length) } };
  if (!last || (last.parts ?? []).some((part) => "functionResponse" in part)) return answer;
  const text = (last.parts ?? []).map((part) => String(part.text ?? "")).join("\n");
  const path = /^diff --git a\/\S+ b\/(\S+)/m.exec(text)?.[1] ?? /^\+\+\+ b\/(\S+)/m.exec(text)?.[1];
  const ws = /Workspace Directories:\*\*\n\s+- (\S+)/.exec(String(contents[0]?.parts?.[0]?.text ?? ""))?.[1];
  if (!path || !ws) return answer;
  return { call: { name: "read_file", args: { file_path: join(ws, path) } }, usage: { prompt: 0, candidates: 40 } };
}

// ---- one arm -------------------------------------------------------------------------------------------
interface ArmOutcome {
  records: AccountedRecord[];
  turns: Array<{ mode: string | null; status: string; trigger: string }>;
  logOverflows: number;
  reviewsPosted: number;
}

/**
 * `expired`: the app is told the provider's cache lives 1 ms (AGENT_CACHE_TTL), as if every push came more
 * than 5 minutes after the last, so it decides as it would then; billed with the cache expired.
 */
async function runArm(
  arm: "resumed" | "cold",
  pushes: number,
  provider: Provider = "claude",
  expired = false,
): Promise<ArmOutcome> {
  const scenario = buildScenario(SEED, pushes);
  const database = await createTestDatabase(process.env.TEST_DATABASE_URL ? "postgres" : "pglite");
  let fx: FlowFixture | undefined;
  let dump: (() => void) | undefined;
  let model: { accounted: AccountedRecord[]; tag: string; close(): Promise<void> } | undefined;
  try {
    fx = FlowFixture.withoutApp();
    const fixture = fx;
    let agent: Agent;
    if (provider === "claude") {
      const claude = await startApiLikeAnthropicServer({ responder: responder(() => fixture.workspace) });
      model = claude;
      agent = new ClaudeCodeAgent({
        homeDir: join(fx.dataDir, "agents"),
        apiKey: "sk-ant-bench",
        baseUrl: claude.url,
        killGraceMs: 1000,
      });
      if (process.env.BENCH_SESSIONS_DUMP)
        dump = () => dumpRequests(claude, `${arm}${expired ? "-expired" : ""}-${pushes}`);
    } else if (provider === "gemini") {
      const gemini = await startApiLikeGeminiServer(geminiReply);
      model = gemini;
      agent = new GeminiAgent({
        homeDir: join(fx.dataDir, "agents"),
        apiKey: "AIza-bench",
        baseUrl: gemini.baseUrl,
        killGraceMs: 1000,
      });
    } else if (provider === "opencode") {
      const server = await startApiLikeAnthropicServer({ responder: openCodeResponder(() => fixture.workspace) });
      model = server;
      agent = new OpenCodeAgent({
        homeDir: join(fx.dataDir, "agents"),
        apiKey: "sk-ant-bench",
        baseUrl: server.url,
        killGraceMs: 1000,
      });
    } else {
      const codex = await startApiLikeOpenAIServer(codexReply);
      model = codex;
      agent = new CodexAgent({
        homeDir: join(fx.dataDir, "agents"),
        apiKey: "sk-bench",
        baseUrl: codex.baseUrl,
        killGraceMs: 1000,
      });
    }
    fx.remote.commit(scenario.base, "the widgets service");
    (fx as { baseSha: string }).baseSha = fx.remote.publish("main");
    fx.github.configYaml = [
      "review:",
      `  session: ${arm === "cold" ? "cold" : "resume"}`,
      "limits:",
      "  max_turns: 1000",
      "  max_cost_usd: 100000",
      "",
    ].join("\n");
    await fx.startApp(database.handle, {
      agent,
      env: { AGENT_TIMEOUT: "180s", ...(expired ? { AGENT_CACHE_TTL: "1ms" } : {}) },
      idleTimeoutMs: 400_000,
    });
    let before = fx.baseSha;
    for (let p = 0; p < pushes; p++) {
      model.tag = `push-${p + 1}`;
      const head = fx.push(scenario.edits[p]!, `change ${p + 1}`);
      if (p === 0) await fx.pullRequest("opened", head);
      else await fx.pullRequest("synchronize", head, { before });
      before = head;
      process.stderr.write(`sessions: ${provider} ${arm} push ${p + 1}/${pushes}\n`);
    }
    dump?.();
    const turns = (await fx.turns()).map((t) => ({ mode: t.sessionMode, status: t.status, trigger: t.trigger }));
    const logOverflows = (fx.app.logs.text().match(/prompt is too long/g) ?? []).length;
    return {
      records: [...model.accounted],
      turns,
      logOverflows,
      reviewsPosted: fx.github.sent("POST", `/pulls/${fx.pr}/reviews`).length,
    };
  } finally {
    await fx?.stop();
    await model?.close();
    await database.dispose();
  }
}

/** BENCH_SESSIONS_DUMP=<dir>: every POST /v1/messages body of the arm, with its push, as <dir>/<arm>/<n>-<push>.json. */
function dumpRequests(model: ApiLikeAnthropicServer, arm: string): void {
  const dir = join(process.env.BENCH_SESSIONS_DUMP!, arm);
  mkdirSync(dir, { recursive: true });
  const bodies = model.requests.filter((r) => r.method === "POST" && r.url.split("?")[0] === "/v1/messages");
  bodies.forEach((r, i) =>
    writeFileSync(
      join(dir, `${String(i).padStart(4, "0")}-${model.accounted[i]?.tag}.json`),
      JSON.stringify(r.body, null, 1),
    ),
  );
}

// ---- billing -------------------------------------------------------------------------------------------
interface Bill {
  requests: number;
  totalBytes: number;
  newBytes: number;
  cachedBytes: number;
  costUsd: number;
}
const emptyBill = (): Bill => ({ requests: 0, totalBytes: 0, newBytes: 0, cachedBytes: 0, costUsd: 0 });

/** Replays `records` through a fresh cache (emptied before every push when `expire`): a bill per push. */
function replay(records: AccountedRecord[], expire: boolean, provider: Provider): Map<string, Bill> {
  const PRICE = PRICES[provider];
  const cache = new PrefixCache();
  const bills = new Map<string, Bill>();
  let tag: string | undefined;
  for (const r of records) {
    if (expire && r.tag !== tag) cache.expire();
    tag = r.tag;
    const a = cache.account(r.blocks, r.at, r.overflow);
    const bill = bills.get(r.tag) ?? emptyBill();
    bills.set(r.tag, bill);
    if (a.overflow) continue;
    bill.requests++;
    bill.totalBytes += a.totalBytes;
    bill.newBytes += a.writtenBytes + a.uncachedBytes;
    bill.cachedBytes += a.cachedBytes;
    bill.costUsd +=
      (tokensOf(a.writtenBytes) * PRICE.write +
        tokensOf(a.uncachedBytes) * PRICE.input +
        tokensOf(a.cachedBytes) * PRICE.read) /
      1e6;
  }
  return bills;
}

const sum = (bills: Map<string, Bill>): Bill => {
  const t = emptyBill();
  for (const b of bills.values()) {
    t.requests += b.requests;
    t.totalBytes += b.totalBytes;
    t.newBytes += b.newBytes;
    t.cachedBytes += b.cachedBytes;
    t.costUsd += b.costUsd;
  }
  return t;
};
const shown = (b: Bill) => ({
  requests: b.requests,
  totalBytes: b.totalBytes,
  totalTokens: tokensOf(b.totalBytes),
  newBytes: b.newBytes,
  newTokens: tokensOf(b.newBytes),
  cachedBytes: b.cachedBytes,
  costUsd: round(b.costUsd, 4),
});

/** Where each push's first main request stopped matching the cache (warm), and what changed from the previous one. */
function prefixChanges(records: AccountedRecord[]) {
  const byTag = new Map<string, AccountedRecord>();
  for (const r of records) if (r.main && !byTag.has(r.tag)) byTag.set(r.tag, r);
  const out: Array<{
    push: string;
    firstMiss: string | null;
    firstDifferenceFromPrevious: string | null;
    model: string;
  }> = [];
  let previous: AccountedRecord | undefined;
  for (const [tag, r] of byTag) {
    let diff: string | null = null;
    if (previous) {
      const i = r.blocks.findIndex((b, k) => previous!.blocks[k]?.prefixHash !== b.prefixHash);
      diff = i < 0 ? null : r.blocks[i]!.where;
    }
    out.push({ push: tag, firstMiss: r.firstMiss ?? null, firstDifferenceFromPrevious: diff, model: r.model });
    previous = r;
  }
  return out;
}

/**
 * The requests a resumed session would make if, from push 2 on, its prompts were empty and its history
 * free: what is left is what a cold review pays too (the CLI's tools and system prompt, the files the
 * turn reads, its answers). Push 1 is kept as it was. Billed like the others, it is the least any prompt
 * or session design could reach on this bench: a target below it is out of the app's hands.
 */
function floorRecords(records: AccountedRecord[]): AccountedRecord[] {
  const firstTag = records[0]?.tag;
  const promptAt = new Map<string, number>(); // push → index of its prompt in its first request
  return records.map((r) => {
    if (!r.main || r.tag === firstTag) return r;
    if (!promptAt.has(r.tag)) promptAt.set(r.tag, r.messages - 1);
    const at = promptAt.get(r.tag)!;
    const blocks = r.blocks.flatMap((b) => {
      const m = /^(?:messages|input|contents)\[(\d+)\]/.exec(b.where);
      if (!m) return [b];
      // what the turn itself added after its prompt, chained on the (unchanged) tools and system prompt
      return Number(m[1]) <= at ? [] : [{ ...b, prefixHash: `${r.tag}:${b.where}` }];
    });
    return { ...r, blocks };
  });
}

function armSummary(outcome: ArmOutcome, provider: Provider = "claude") {
  const warm = replay(outcome.records, false, provider);
  const floor = replay(floorRecords(outcome.records), false, provider);
  const expired = replay(outcome.records, true, provider);
  return {
    perPush: [...warm.keys()].map((tag) => ({
      push: tag,
      warm: shown(warm.get(tag)!),
      expired: shown(expired.get(tag)!),
    })),
    warm: shown(sum(warm)),
    expired: shown(sum(expired)),
    floor: shown(sum(floor)),
    mainRequests: outcome.records.filter((r) => r.main).length,
    otherRequests: outcome.records.filter((r) => !r.main).length,
    overflows: outcome.records.filter((r) => r.overflow).length,
    largestRequestTokens: Math.max(0, ...outcome.records.map((r) => tokensOf(r.totalBytes))),
    models: [...new Set(outcome.records.map((r) => r.model))],
    turns: outcome.turns,
    reviewsPosted: outcome.reviewsPosted,
    prefixChanges: prefixChanges(outcome.records),
  };
}

// ---- the run -------------------------------------------------------------------------------------------
nock.disableNetConnect();
nock.enableNetConnect("127.0.0.1");
const scenario = buildScenario(SEED, cfg.pushes);
const brief = (a: ReturnType<typeof armSummary>) => ({
  ...a,
  turns: undefined,
  turnModes: countBy(a.turns.map((t) => t.mode)),
});
const only = process.env.BENCH_SESSIONS_ONLY ?? (process.env.BENCH_SESSIONS_GEMINI === "only" ? "gemini" : undefined);
// Gemini CLI (gemini-2.5-pro prices) and OpenCode (Sonnet-like prices, through its Anthropic provider): the
// 10-push comparison each.
const withGemini = process.env.BENCH_SESSIONS_GEMINI !== "off" && (only === undefined || only === "gemini");
const gemini = withGemini ? await compareArms("gemini") : undefined;
const withOpenCode = process.env.BENCH_SESSIONS_OPENCODE !== "off" && (only === undefined || only === "opencode");
const openCode = withOpenCode ? await compareArms("opencode") : undefined;
if (only !== undefined) {
  removeTempDirs();
  emitResult({
    config: { ...cfg, files: Object.keys(scenario.base).length, lines: scenario.lines, seed: SEED, prices: PRICES },
    gemini,
    opencode: openCode,
  });
  process.exit(0);
}
const resumed = armSummary(await runArm("resumed", cfg.pushes));
const resumedExpired = armSummary(await runArm("resumed", cfg.pushes, "claude", true));
const cold = armSummary(await runArm("cold", cfg.pushes));
const longOutcome = await runArm("resumed", cfg.longPushes);
const long = armSummary(longOutcome);
// Codex (gpt-5-like prices), the 10-push comparison only. BENCH_SESSIONS_CODEX=off leaves it out.
const withCodex = process.env.BENCH_SESSIONS_CODEX !== "off";
const codexResumed = withCodex ? armSummary(await runArm("resumed", cfg.pushes, "codex"), "codex") : undefined;
const codexResumedExpired = withCodex
  ? armSummary(await runArm("resumed", cfg.pushes, "codex", true), "codex")
  : undefined;
const codexCold = withCodex ? armSummary(await runArm("cold", cfg.pushes, "codex"), "codex") : undefined;
removeTempDirs();

/** One provider's 10-push comparison: resumed (warm and expired) against cold, with the ratios. */
async function compareArms(provider: Provider) {
  const r = armSummary(await runArm("resumed", cfg.pushes, provider), provider);
  const rx = armSummary(await runArm("resumed", cfg.pushes, provider, true), provider);
  const c = armSummary(await runArm("cold", cfg.pushes, provider), provider);
  return {
    resumed: brief(r),
    resumedExpired: brief(rx),
    cold: brief(c),
    ratios: {
      newInput: round(r.warm.newBytes / c.warm.newBytes, 3),
      totalInput: round(r.warm.totalBytes / c.warm.totalBytes, 3),
      costWarm: round(r.warm.costUsd / c.warm.costUsd, 3),
      costExpired: round(rx.expired.costUsd / c.expired.costUsd, 3),
      floorNewInput: round(r.floor.newBytes / c.warm.newBytes, 3),
      floorCostWarm: round(r.floor.costUsd / c.warm.costUsd, 3),
    },
  };
}

function countBy(xs: Array<string | null>) {
  return Object.fromEntries([...new Set(xs)].map((k) => [String(k), xs.filter((x) => x === k).length]));
}
emitResult({
  config: {
    ...cfg,
    files: Object.keys(scenario.base).length,
    lines: scenario.lines,
    price: PRICES.claude,
    codexPrice: PRICES.codex,
    geminiPrice: PRICES.gemini,
    seed: SEED,
    sessionBudgetTokens: DEFAULT_SESSION_BUDGET_TOKENS,
  },
  resumed: brief(resumed),
  // the RESUMED arm as the app runs when every push comes after the cache expired
  resumedExpired: brief(resumedExpired),
  cold: brief(cold),
  codex:
    codexResumed && codexCold
      ? {
          resumed: brief(codexResumed),
          resumedExpired: brief(codexResumedExpired!),
          cold: brief(codexCold),
          ratios: {
            newInput: round(codexResumed.warm.newBytes / codexCold.warm.newBytes, 3),
            totalInput: round(codexResumed.warm.totalBytes / codexCold.warm.totalBytes, 3),
            costWarm: round(codexResumed.warm.costUsd / codexCold.warm.costUsd, 3),
            costExpired: round(codexResumedExpired!.expired.costUsd / codexCold.expired.costUsd, 3),
            floorNewInput: round(codexResumed.floor.newBytes / codexCold.warm.newBytes, 3),
            floorCostWarm: round(codexResumed.floor.costUsd / codexCold.warm.costUsd, 3),
          },
        }
      : undefined,
  gemini,
  opencode: openCode,
  ratios: {
    newInput: round(resumed.warm.newBytes / cold.warm.newBytes, 3),
    totalInput: round(resumed.warm.totalBytes / cold.warm.totalBytes, 3),
    costWarm: round(resumed.warm.costUsd / cold.warm.costUsd, 3),
    costExpired: round(resumedExpired.expired.costUsd / cold.expired.costUsd, 3),
    floorNewInput: round(resumed.floor.newBytes / cold.warm.newBytes, 3),
    floorCostWarm: round(resumed.floor.costUsd / cold.warm.costUsd, 3),
  },
  long: {
    pushes: cfg.longPushes,
    reviewsPosted: long.reviewsPosted,
    largestRequestTokens: long.largestRequestTokens,
    overflows: long.overflows,
    logOverflows: longOutcome.logOverflows,
    mainRequests: long.mainRequests,
    warm: long.warm,
    expired: long.expired,
    models: long.models,
    turnModes: countBy(long.turns.map((t) => t.mode)),
    turnStatuses: countBy(long.turns.map((t) => t.status)),
    turnsFallbackOrRollover: long.turns.filter((t) => t.mode === "fallback" || t.mode === "rollover").length,
    prefixChanges: long.prefixChanges.filter(
      (c, i) => i < 3 || c.firstDifferenceFromPrevious?.startsWith("messages") !== true,
    ),
  },
});
