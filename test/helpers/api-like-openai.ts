import { PrefixCache, hashPrefix, tokensOf, type AccountedRecord, type PrefixPart } from "./api-like-anthropic.js";
import {
  startFakeOpenAIServer,
  type FakeOpenAIServer,
  type FakeReply,
  type ResponsesBody,
} from "./fake-openai-server.js";

/**
 * A request's prefix as OpenAI's prompt cache sees it: tools, instructions, then every `input` item,
 * each serialized as JSON. The model is part of the key.
 */
export function responsesPrefixBlocks(body: ResponsesBody) {
  const parts: PrefixPart[] = [];
  const tools = Array.isArray(body.tools) ? (body.tools as unknown[]) : [];
  tools.forEach((tool, i) => parts.push({ where: `tools[${i}]`, value: tool }));
  if (body.instructions !== undefined) parts.push({ where: "instructions", value: body.instructions });
  (body.input ?? []).forEach((item, i) => parts.push({ where: `input[${i}]`, value: item }));
  return hashPrefix(body.model ?? "", parts);
}

export interface ApiLikeOpenAIServer extends FakeOpenAIServer {
  /** Every POST /v1/responses, accounted, in order (`writtenBytes` = not from the cache, billed 1×). */
  readonly accounted: AccountedRecord[];
  /** Labels the requests that come from now on. */
  tag: string;
}

/**
 * The fake OpenAI Responses server (test/helpers/fake-openai-server.ts) reporting usage as the API's
 * automatic prompt cache would: `input_tokens` of the whole request, `input_tokens_details.cached_tokens`
 * of its longest prefix seen in the last 5 minutes. The API caches in 128-token steps from 1,024 tokens
 * and keeps entries 5–10 minutes (up to an hour off-peak); every block boundary and a 5-minute life is a
 * close, slightly generous model. It charges nothing extra for writing.
 */
export async function startApiLikeOpenAIServer(
  reply: (body: ResponsesBody) => FakeReply,
): Promise<ApiLikeOpenAIServer> {
  const server = await startFakeOpenAIServer();
  const cache = new PrefixCache();
  const accounted: AccountedRecord[] = [];
  const labels = { tag: "" };
  server.setDefault((body) => {
    const blocks = responsesPrefixBlocks(body);
    const at = Date.now();
    const billed = cache.account(blocks, at);
    accounted.push({
      ...billed,
      tag: labels.tag,
      main: true,
      model: body.model ?? "",
      at,
      blocks,
      messages: body.input?.length ?? 0,
    });
    const answer = reply(body);
    if (!("text" in answer || "shell" in answer || "applyPatch" in answer)) return answer;
    return {
      ...answer,
      usage: {
        input: tokensOf(billed.totalBytes),
        cached: tokensOf(billed.cachedBytes),
        output: answer.usage?.output ?? 20,
      },
    };
  });
  const extended = Object.assign(server, { accounted, tag: "" });
  Object.defineProperty(extended, "tag", {
    get: () => labels.tag,
    set: (value: string) => void (labels.tag = value),
  });
  return extended;
}
