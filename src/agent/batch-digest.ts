import { createHash } from "node:crypto";
import type { PendingCall } from "../session/types.js";

/** An approval names this digest, so approving one batch can never approve a different one. */
export function batchDigest(calls: PendingCall[]): string {
  const canonical = JSON.stringify(calls.map((c) => [c.callId, c.tool, c.input]));
  return createHash("sha256").update(canonical).digest("hex");
}
