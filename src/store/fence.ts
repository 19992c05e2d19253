import { HandledError } from "../errors/index.js";

/**
 * A worker's lease on a lane (src/queue/pg): `epoch` changes whenever the lane changes hands, so a
 * write made under an old epoch is a write by a worker that no longer owns the session.
 */
export interface Fence {
  lane: string;
  owner: string;
  epoch: number;
}

/** Thrown by a fenced write (and by the queue) once another worker holds the lane. */
/** Whether `e` (or what caused it) is a lost lease: the session went to another worker mid-job. */
export function leaseWasLost(e: unknown): boolean {
  for (let x: unknown = e, depth = 0; x instanceof Error && depth < 5; x = x.cause, depth++) if (x.name === "LeaseLostError") return true;
  return false;
}

/** This worker stops its job; the session goes on with the worker that holds the lease now. */
export class LeaseLostError extends HandledError {
  readonly kind = "lease_lost";
  constructor(readonly lane: string) {
    super(`the lease on ${lane} was lost (another worker holds it now)`);
  }
}
