import { randomUUID } from "node:crypto";
import { sendWebhook } from "./webhook-sender.js";

/**
 * The fake GitHub as the sender of the app's webhooks: every attempt is recorded the way GitHub's
 * "Recent deliveries" keeps it (`GET /app/hook/deliveries`), a failed one included — an app that was
 * down is a connection refused. A redelivery (`POST /app/hook/deliveries/{id}/attempts`) sends the
 * same event again under the same `guid` (the `X-GitHub-Delivery` header), as a new attempt with
 * `redelivery: true`.
 */
export interface HookDelivery {
  id: number;
  guid: string;
  delivered_at: string;
  redelivery: boolean;
  duration: number;
  status: string;
  status_code: number;
  event: string;
  action: string | null;
  installation_id: number | null;
  repository_id: number | null;
  throttled_at: null;
}

interface Sent {
  event: string;
  payload: Record<string, any>;
}

export class HookDeliveries {
  /** Where the app's webhook points (its "Webhook URL") at the time of an attempt; null: nowhere. */
  target: () => string | null = () => this.url;
  /** A fixed webhook URL, for tests without a harness; null until set. */
  url: string | null = null;
  /** The app's webhook secret, which GitHub signs each delivery with. */
  secret = "";
  /** Attempts, oldest first (the API lists newest first). */
  readonly attempts: HookDelivery[] = [];
  private readonly sent = new Map<string, Sent>();
  private nextId = 90_000;

  constructor(private readonly now: () => string) {}

  /** GitHub delivers an event: one attempt, recorded whatever its outcome. */
  deliver(event: string, payload: Record<string, any>): Promise<HookDelivery> {
    const guid = randomUUID();
    this.sent.set(guid, { event, payload });
    return this.attempt(guid, false);
  }

  /** The attempt with this id exists: its event is sent again (asynchronously, as GitHub does). */
  redeliver(id: number): Promise<HookDelivery> | null {
    const original = this.attempts.find((a) => a.id === id);
    return original ? this.attempt(original.guid, true) : null;
  }

  /** Newest first, `per_page` at a time; the cursor is the id to continue below. */
  page(perPage: number, cursor: number | null): { items: HookDelivery[]; next: number | null } {
    const newestFirst = [...this.attempts].reverse().filter((a) => cursor === null || a.id < cursor);
    const items = newestFirst.slice(0, perPage);
    return { items, next: newestFirst.length > perPage ? items.at(-1)!.id : null };
  }

  private async attempt(guid: string, redelivery: boolean): Promise<HookDelivery> {
    const { event, payload } = this.sent.get(guid)!;
    const started = performance.now();
    let status = "failed to connect to host";
    let code = 0;
    const url = this.target();
    if (url) {
      const r = await sendWebhook(url, this.secret, event, payload, guid).catch(() => null);
      if (r) [status, code] = [r.status >= 200 && r.status < 300 ? "OK" : `Invalid HTTP Response: ${r.status}`, r.status];
    }
    const a: HookDelivery = {
      id: (this.nextId += 1),
      guid,
      delivered_at: this.now(),
      redelivery,
      duration: (performance.now() - started) / 1000,
      status,
      status_code: code,
      event,
      action: typeof payload.action === "string" ? payload.action : null,
      installation_id: payload.installation?.id ?? null,
      repository_id: payload.repository?.id ?? null,
      throttled_at: null,
    };
    this.attempts.push(a);
    return a;
  }
}
