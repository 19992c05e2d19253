import { createHmac, randomUUID } from "node:crypto";

/**
 * Sends deliveries the way GitHub does: JSON body, event and delivery headers, and the
 * `x-hub-signature-256` HMAC of the exact bytes sent.
 */
export interface SentDelivery {
  id: string;
  status: number;
  /** Milliseconds from sending to the response status. */
  ms: number;
}

function sign(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

export async function sendWebhook(url: string, secret: string, event: string, payload: unknown, id: string = randomUUID()): Promise<SentDelivery> {
  const body = JSON.stringify(payload);
  const started = performance.now();
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": event,
      "x-github-delivery": id,
      "x-hub-signature-256": sign(secret, body),
      "user-agent": "GitHub-Hookshot/fake",
    },
    body,
  });
  await res.arrayBuffer();
  return { id, status: res.status, ms: performance.now() - started };
}
