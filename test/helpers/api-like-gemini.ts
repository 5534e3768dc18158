import { PrefixCache, hashPrefix, tokensOf, type AccountedRecord, type PrefixPart } from "./api-like-anthropic.js";
import {
  startFakeGeminiServer,
  type FakeGeminiReply,
  type FakeGeminiServer,
  type GeminiRequestBody,
} from "./fake-gemini-server.js";

/**
 * A request's prefix as the Gemini API's implicit cache sees it: the system instruction, the tools, then
 * every content part of every turn, each serialized as JSON. The model is part of the key.
 */
export function geminiPrefixBlocks(model: string, body: GeminiRequestBody) {
  const parts: PrefixPart[] = [];
  if (body.systemInstruction !== undefined) parts.push({ where: "systemInstruction", value: body.systemInstruction });
  (body.tools ?? []).forEach((tool, i) => parts.push({ where: `tools[${i}]`, value: tool }));
  (body.contents ?? []).forEach((content, m) =>
    (content.parts ?? []).forEach((part, p) =>
      parts.push({ where: `contents[${m}][${p}]`, value: part, role: content.role }),
    ),
  );
  return hashPrefix(model, parts);
}

export interface ApiLikeGeminiServer extends FakeGeminiServer {
  /** Every model call, accounted, in order (`writtenBytes` = not from the cache, billed 1×). */
  readonly accounted: AccountedRecord[];
  /** Labels the requests that come from now on. */
  tag: string;
}

/**
 * The fake Gemini server (fake-gemini-server.ts) reporting usage as the API's implicit cache would:
 * `promptTokenCount` of the whole request, `cachedContentTokenCount` of its longest prefix seen in the last
 * 5 minutes. The API caches implicitly from 1,024–2,048 tokens on and charges nothing extra for writing;
 * every block boundary and a 5-minute life is a close, slightly generous model of it.
 */
export async function startApiLikeGeminiServer(
  reply: (body: GeminiRequestBody) => FakeGeminiReply,
): Promise<ApiLikeGeminiServer> {
  const server = await startFakeGeminiServer();
  const cache = new PrefixCache();
  const accounted: AccountedRecord[] = [];
  const labels = { tag: "" };
  server.setDefault((body) => {
    const model = server.requests.at(-1)?.model ?? "";
    const blocks = geminiPrefixBlocks(model, body);
    const at = Date.now();
    const billed = cache.account(blocks, at);
    accounted.push({ ...billed, tag: labels.tag, main: true, model, at, blocks, messages: body.contents?.length ?? 0 });
    const answer = reply(body);
    if (!("text" in answer || "call" in answer)) return answer;
    return {
      ...answer,
      usage: {
        prompt: tokensOf(billed.totalBytes),
        cached: tokensOf(billed.cachedBytes),
        candidates: answer.usage?.candidates ?? 20,
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
