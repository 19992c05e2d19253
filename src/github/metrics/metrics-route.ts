import type { IncomingMessage, ServerResponse } from "node:http";
import type { PatchgateDeps } from "../deps.js";
import { tokenMatches } from "../health-route.js";
import type { AppMetrics } from "./app-metrics.js";

const METRICS_PATH = "/metrics";

/**
 * `GET /metrics` in Prometheus's text format, behind the health token (`Authorization: Bearer
 * $PATCHGATE_HEALTH_TOKEN`): the numbers name installations and phases, so without the token, or
 * when none is configured, the answer is 401 and nothing else. prom-client loads at the first scrape.
 */
export function metricsHandler(deps: Pick<PatchgateDeps, "store" | "queue" | "healthToken" | "log"> & { metrics: AppMetrics }) {
  let fromStore: Promise<import("prom-client").Registry> | null = null;
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    if ((req.url ?? "").split("?")[0] !== METRICS_PATH) return false;
    if (req.method !== "GET") return text(res, 405, "GET only\n", { allow: "GET" });
    if (!tokenMatches(req.headers.authorization ?? "", deps.healthToken ?? null))
      return text(res, 401, "metrics need Authorization: Bearer $PATCHGATE_HEALTH_TOKEN\n");
    try {
      const own = await deps.metrics.instruments();
      fromStore ??= import("./store-instruments.js").then((m) => m.storeInstruments(deps));
      const { Registry } = await import("prom-client");
      const merged = Registry.merge([own.registry, await fromStore]);
      return text(res, 200, await merged.metrics(), { "content-type": merged.contentType });
    } catch (e) {
      deps.log(`metrics: ${e instanceof Error ? e.message : String(e)}`, "error");
      return text(res, 503, "unavailable\n");
    }
  };
}

function text(res: ServerResponse, code: number, body: string, headers: Record<string, string> = {}): true {
  res.writeHead(code, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...headers });
  res.end(body);
  return true;
}
