import pino from "pino";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { compileShapeCheck } from "../../src/webhooks/compile-shape-check.js";
import { checkRunRerequestedShape } from "../../src/webhooks/check-run-rerequested-shape.js";
import { issueCommentShape } from "../../src/webhooks/issue-comment-shape.js";
import { pullRequestClosedShape } from "../../src/webhooks/pull-request-closed-shape.js";
import { pullRequestShape } from "../../src/webhooks/pull-request-shape.js";
import { readPayload } from "../../src/webhooks/read-payload.js";
import { reviewCommentShape } from "../../src/webhooks/review-comment-shape.js";
import { seededRandom } from "../helpers/seeded-random.js";
import { examplePayload } from "../helpers/webhook-payloads.js";

type Json = Record<string, any>;

/** Each webhook shape with a real delivery of its event (GitHub's documented examples), made ours where the example is not. */
const cases: { name: string; shape: z.ZodType; payload: () => Json }[] = [
  {
    name: "pull_request.synchronize",
    shape: pullRequestShape,
    payload: () => ({ installation: { id: 7 }, ...examplePayload("pull_request", "synchronize") }),
  },
  {
    // @octokit/webhooks-examples has no pull_request.edited: a real pull_request delivery with GitHub's `changes`
    name: "pull_request.edited",
    shape: pullRequestShape,
    payload: () => ({
      installation: { id: 7 },
      ...examplePayload("pull_request", "synchronize"),
      action: "edited",
      changes: { title: { from: "WIP" }, body: { from: null }, base: { ref: { from: "dev" }, sha: { from: "abc" } } },
    }),
  },
  {
    name: "pull_request.closed",
    shape: pullRequestClosedShape,
    payload: () => examplePayload("pull_request", "closed"),
  },
  {
    name: "issue_comment.created",
    shape: issueCommentShape,
    payload: () => examplePayload("issue_comment", "created"),
  },
  {
    name: "pull_request_review_comment.created",
    shape: reviewCommentShape,
    payload: () => examplePayload("pull_request_review_comment", "created"),
  },
  {
    name: "check_run.rerequested",
    shape: checkRunRerequestedShape,
    payload: () => examplePayload("check_run", "rerequested"),
  },
  {
    // optional without nullable and the reverse, which the webhook shapes (all nullish) do not tell apart
    name: "a shape of every kind the compiler knows",
    shape: z.object({
      a: z.string().optional(),
      b: z.number().nullable(),
      c: z.array(z.object({ d: z.boolean() })),
      e: z.object({ f: z.string() }).optional(),
      g: z.object({ h: z.number() }).nullable(),
    }),
    payload: () => ({ a: "x", b: 1, c: [{ d: true }, { d: false }], e: { f: "y" }, g: { h: 2 }, other: [1] }),
  },
];

/** Every path the schema names (objects' fields; an array's elements as index 0). */
function schemaPaths(schema: z.ZodType, prefix: (string | number)[] = []): (string | number)[][] {
  const def = schema.def as unknown as Json;
  if (def.type === "optional" || def.type === "nullable") return schemaPaths(def.innerType, prefix);
  if (def.type === "array") return [prefix, ...schemaPaths(def.element, [...prefix, 0])];
  if (def.type !== "object") return [prefix];
  return [
    prefix,
    ...Object.entries(def.shape as Record<string, z.ZodType>).flatMap(([k, v]) => schemaPaths(v, [...prefix, k])),
  ];
}

const REPLACEMENTS: unknown[] = [
  null,
  undefined,
  "text",
  "",
  0,
  42,
  -1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  false,
  [],
  [{}],
  {},
  { login: "x", type: "User", id: 1, number: 1 },
];
const DELETE = Symbol("delete");

/** The payload with the value at `path` replaced (or deleted); the root itself when the path is empty. */
function mutate(payload: Json, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value === DELETE ? undefined : value;
  const copy = structuredClone(payload);
  let at: any = copy;
  for (const key of path.slice(0, -1)) {
    if (typeof at !== "object" || at === null) return copy;
    at = at[key];
  }
  if (typeof at !== "object" || at === null) return copy;
  const last = path.at(-1)!;
  if (value === DELETE) delete at[last];
  else at[last] = value;
  return copy;
}

describe("compileShapeCheck", () => {
  for (const { name, shape, payload } of cases) {
    describe(name, () => {
      const check = compileShapeCheck(shape);

      it("accepts GitHub's example delivery, as the schema does (the fast path is taken)", () => {
        const p = payload();
        expect(shape.safeParse(p).success).toBe(true);
        expect(check(p)).toBe(true);
      });

      it("decides exactly as the schema on every field replaced by every kind of value, or deleted", () => {
        const base = payload();
        let rejected = 0;
        let compared = 0;
        for (const path of schemaPaths(shape)) {
          for (const value of [...REPLACEMENTS, DELETE]) {
            const v = mutate(base, path, value);
            const schemaSays = shape.safeParse(v).success;
            expect({ path: path.join("."), value: String(value), check: check(v) }).toEqual({
              path: path.join("."),
              value: String(value),
              check: schemaSays,
            });
            compared++;
            if (!schemaSays) rejected++;
          }
        }
        // the comparison covered both answers
        expect(rejected).toBeGreaterThan(compared / 4);
        expect(compared - rejected).toBeGreaterThan(0);
      });

      it("decides exactly as the schema on seeded random combinations of those changes", () => {
        const paths = schemaPaths(shape);
        const values = [...REPLACEMENTS, DELETE];
        for (const seed of [1, 2, 3]) {
          const random = seededRandom(seed);
          for (let i = 0; i < 300; i++) {
            let v: unknown = payload();
            const changes = 1 + Math.floor(random() * 3);
            for (let c = 0; c < changes && typeof v === "object" && v !== null; c++)
              v = mutate(
                v as Json,
                paths[Math.floor(random() * paths.length)]!,
                values[Math.floor(random() * values.length)],
              );
            expect(check(v), `seed ${seed} case ${i}`).toBe(shape.safeParse(v).success);
          }
        }
      });
    });
  }

  it("leaves to the schema what it does not know: refinements, literals, enums, strict objects", () => {
    const unknowns: [z.ZodType, unknown][] = [
      [z.string().min(1), "a"],
      [z.number().int(), 3],
      [z.literal("x"), "x"],
      [z.enum(["a", "b"]), "a"],
      [z.strictObject({ a: z.string() }), { a: "x" }],
      [z.object({ a: z.string() }).catchall(z.string()), { a: "x", b: "y" }],
      [z.object({ tags: z.array(z.string().max(3)) }), { tags: ["ok"] }],
    ];
    for (const [schema, value] of unknowns) {
      expect(schema.safeParse(value).success).toBe(true);
      expect(compileShapeCheck(schema)(value)).toBe(false);
    }
  });
});

describe("readPayload", () => {
  const lines: Json[] = [];
  const log = pino({ level: "debug" }, { write: (l: string) => void lines.push(JSON.parse(l)) });

  it("hands a well-formed delivery to the handler as it came (no copy) and says nothing", () => {
    const p = cases[0]!.payload();
    expect(readPayload(pullRequestShape, { id: "d1", name: "pull_request", payload: p }, log)).toBe(p);
    expect(lines).toEqual([]);
  });

  it("still names what is missing from a malformed one, in one warn line, and returns nothing", () => {
    const p = cases[0]!.payload();
    delete p.pull_request.head.sha;
    p.repository.id = "12";
    expect(readPayload(pullRequestShape, { id: "d2", name: "pull_request", payload: p }, log)).toBeUndefined();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, deliveryId: "d2", event: "pull_request.synchronize" });
    expect(lines[0]!.missing).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^pull_request\.head\.sha: /),
        expect.stringMatching(/^repository\.id: /),
      ]),
    );
  });
});
