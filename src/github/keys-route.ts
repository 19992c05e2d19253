import type { IncomingMessage, ServerResponse } from "node:http";
import { publicKeysDocument } from "../receipt/signing-key.js";
import type { PatchgateDeps } from "./deps.js";

const KEYS_PATH = "/patchgate/keys";

/**
 * `GET /patchgate/keys` on the receiver (a Probot handler, like ./health-route.ts): the public keys
 * this deployment signs receipts with, the current one and the retired ones with the date they
 * stopped, for `patchgate verify --key <url>`. Public halves only: the private key is never read here.
 * A deployment without receipts answers 404.
 */
export function keysHandler(deps: Pick<PatchgateDeps, "receipts">) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== KEYS_PATH) return false;
    if (req.method !== "GET" && req.method !== "HEAD") return send(res, 405, { error: "GET only" }, { allow: "GET, HEAD" });
    if (!deps.receipts) return send(res, 404, { error: "this deployment signs no receipts" });
    return send(res, 200, publicKeysDocument(deps.receipts.keys), { "cache-control": "public, max-age=300" });
  };
}

function send(res: ServerResponse, code: number, body: unknown, headers: Record<string, string> = {}): true {
  res.writeHead(code, { "content-type": "application/json", "cache-control": "no-store", ...headers });
  res.end(`${JSON.stringify(body, null, 2)}\n`);
  return true;
}
