import type { Logger } from "pino";
import type { z } from "zod";
import { compileShapeCheck, type ShapeCheck } from "./compile-shape-check.js";

/** A delivery as the webhooks emitter hands it over: only what validation needs. */
export interface DeliveryEvent {
  id: string;
  name: string;
  payload: unknown;
}

/** Each schema's plain-function check, built on first use. */
const checks = new WeakMap<z.ZodType, ShapeCheck>();

/**
 * The payload checked against the fields a handler uses; undefined (and ONE warn line naming the
 * delivery, the event and what did not match) when it does not have them. A malformed delivery is then
 * answered 200 and ignored — never journaled, never a 500 that GitHub would show failed and that a
 * redelivery would only repeat.
 */
export function readPayload<S extends z.ZodType>(shape: S, event: DeliveryEvent, log: Logger): z.infer<S> | undefined {
  let check = checks.get(shape);
  if (!check) checks.set(shape, (check = compileShapeCheck(shape)));
  // The common case, a well-formed delivery, without the schema's parse (handlers read named fields only,
  // so the payload's other fields, which the parse would strip, are never used); the schema decides the rest.
  if (check(event.payload)) return event.payload as z.infer<S>;
  const result = shape.safeParse(event.payload);
  if (result.success) return result.data;
  const action = (event.payload as { action?: unknown } | null)?.action;
  log.warn(
    {
      deliveryId: event.id,
      event: typeof action === "string" ? `${event.name}.${action}` : event.name,
      missing: result.error.issues.map(
        (issue) => `${issue.path.map(String).join(".") || "(payload)"}: ${issue.message}`,
      ),
    },
    "webhook payload does not have the event's shape; ignored",
  );
  return undefined;
}
