import type { ToolchainRecord, UnmetToolchain } from "../session/types.js";

/**
 * The toolchains of a session in one line, for the timeline and the check run: what the sandbox
 * sees (name, version, where, how it was found), then what the repository needs and the host lacks.
 */
export function toolchainsLine(toolchains: readonly ToolchainRecord[], unmet: readonly UnmetToolchain[]): string {
  const seen = toolchains.map((t) => `${t.name} ${t.version} at ${t.path} (${t.how})`);
  const missing = unmet.map((u) => `${u.required ? "missing" : "not found"}: ${u.name} ${u.wanted} (${u.source}) — ${u.install}`);
  return [...seen, ...missing].join(" · ") || "nothing beyond /usr";
}
