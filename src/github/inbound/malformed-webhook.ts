import { HandledError } from "../../errors/index.js";

/**
 * A signed delivery whose payload lacks a field its event always has. It is GitHub's (or a proxy's)
 * bug, not a request: it is logged with what was missing and answered 2xx, so nothing retries it and
 * nothing half-parsed reaches a job.
 */
export class MalformedWebhookError extends HandledError {
  readonly kind = "malformed_webhook";
  constructor(
    readonly deliveryId: string,
    readonly event: string,
    readonly detail: string,
  ) {
    super(`malformed ${event} delivery ${deliveryId}: ${detail}`);
  }
}
