/**
 * Webhook requests being answered, by delivery id, and whether the intake took each one: the request
 * observer opens an entry when the request starts and closes it when the answer is out; the intake marks
 * it accepted in between. Only ids with an open request are kept, so nothing accumulates.
 */
export class InFlightDeliveries {
  readonly #open = new Map<string, boolean>();

  start(deliveryId: string): void {
    this.#open.set(deliveryId, false);
  }

  /** The intake journaled this delivery (ignored when no request of that id is being answered). */
  accepted(deliveryId: string): void {
    if (this.#open.has(deliveryId)) this.#open.set(deliveryId, true);
  }

  /** Closes the entry; true when the intake accepted the delivery while it was open. */
  finish(deliveryId: string): boolean {
    const accepted = this.#open.get(deliveryId) ?? false;
    this.#open.delete(deliveryId);
    return accepted;
  }

  get size(): number {
    return this.#open.size;
  }
}
