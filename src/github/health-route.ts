import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { countsOnly, operationsStatus } from "../queue/status.js";
import type { QueueCounts } from "../queue/types.js";
import type { PatchgateDeps } from "./deps.js";

const HEALTH_PATH = "/patchgate/health";

const NO_QUEUE_COUNTS: QueueCounts = { queued: 0, running: 0, leases: [], failed: [], dead: [] };

/**
 * `GET /patchgate/health` on the receiver (a Probot handler, added with `addHandler`): the numbers
 * of `patchgate status --json`, from the same code (src/queue/status.ts), on SQLite and on
 * PostgreSQL. Without a token it answers counts only — nothing names a repository, an issue, a
 * worker's host or an error — since the route is as public as the webhook URL. With
 * `Authorization: Bearer $PATCHGATE_HEALTH_TOKEN` it answers the details `patchgate status --json`
 * prints; a wrong token, or one sent while none is configured, is 401. `status` is `ok`, or
 * `attention` while a dead letter waits; a store that does not answer is 503 without its error.
 * Probot's own `/ping` stays what the image's HEALTHCHECK asks.
 */
export function healthHandler(deps: Pick<PatchgateDeps, "store" | "queue" | "healthToken" | "log">) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== HEALTH_PATH) return false;
    if (req.method !== "GET" && req.method !== "HEAD") return send(res, 405, { error: "GET only" }, { allow: "GET, HEAD" });
    const auth = req.headers.authorization;
    const details = auth !== undefined;
    if (details && !tokenMatches(auth, deps.healthToken ?? null))
      return send(res, 401, { error: "wrong or unconfigured token: details need Authorization: Bearer $PATCHGATE_HEALTH_TOKEN" });
    try {
      const s = await operationsStatus(deps.queue.counts?.() ?? Promise.resolve(NO_QUEUE_COUNTS), deps.store);
      const status = s.dead.length > 0 ? "attention" : "ok";
      return send(res, 200, details ? { status, ...s } : { status, ...countsOnly(s) });
    } catch (e) {
      deps.log(`health: ${e instanceof Error ? e.message : String(e)}`, "error");
      return send(res, 503, { status: "unavailable" });
    }
  };
}

/** Whether `header` is `Bearer <token>`, compared in constant time; never when no token is configured. */
export function tokenMatches(header: string, token: string | null): boolean {
  if (!token) return false;
  const given = Buffer.from(/^Bearer (.+)$/i.exec(header)?.[1] ?? "");
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

function send(res: ServerResponse, code: number, body: unknown, headers: Record<string, string> = {}): true {
  res.writeHead(code, { "content-type": "application/json", "cache-control": "no-store", ...headers });
  res.end(`${JSON.stringify(body)}\n`);
  return true;
}
