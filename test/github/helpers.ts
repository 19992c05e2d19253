import type { Harness } from "../../src/demo/harness.js";

/** The fake GitHub's call log as `METHOD path` lines (query kept for list calls), from index `from`. */
export function callLines(h: Harness, from = 0): string[] {
  return h.github.world.calls.slice(from).map((c) => {
    const q = new URLSearchParams(c.query).toString();
    return `${c.method} ${c.path}${q ? `?${q}` : ""}`;
  });
}

export const R = "/repos/octo-org/calculator";
export const MINT = "POST /app/installations/77/access_tokens";
