import { BUILTIN_RULE } from "./builtin-rules.js";
import type { ExecutableConfigHit, ToolError } from "../session/types.js";
import type { PolicyDecision } from "./types.js";

/**
 * Gate 9's last sentence, applied after the rules whatever they said: a write of executable
 * configuration asks, for an approval of its own. A deny stays a deny; an allow (a repository rule, a
 * wrong rule) becomes an ask, so no rule list can let it through unseen.
 */
export function askForExecutableConfig(verdict: PolicyDecision, hit: ExecutableConfigHit | null): PolicyDecision {
  if (hit === null || verdict.decision === "deny") return verdict;
  return {
    decision: "ask",
    rule: BUILTIN_RULE.EXECUTABLE_CONFIG,
    reason: `${hit.path} is executable configuration (${hit.tool}: ${hit.when}); it needs its own approval`,
    executableConfig: hit,
  };
}

/** The wording the model sees when a write of executable configuration runs without its own approval. */
export function executableConfigNotApproved(hit: ExecutableConfigHit): ToolError {
  return {
    code: "executable_config_not_approved",
    message: `${hit.path} was not written: it is executable configuration (${hit.tool}: ${hit.when}), which needs a maintainer's own approval of it; approving the other writes, or all writes, does not cover it. Ask again only if the task needs it, and say why in your message.`,
    details: { path: hit.path, tool: hit.tool },
  };
}

/**
 * The publication check's part (defense in depth: the policy and the tools refuse first). Every changed
 * path that is executable configuration must hold exactly what a file tool wrote under its own
 * approval: `approved` maps path → content hash recorded then, `written` the hash last written (the
 * written-content check holds that to the disk). A deletion, or a change a command made, was never shown.
 */
export function checkExecutableConfig(
  hits: readonly ExecutableConfigHit[],
  approved: Readonly<Record<string, string>>,
  written: Readonly<Record<string, string>>,
): ToolError | null {
  const unapproved = hits.filter((h) => approved[h.path] === undefined || approved[h.path] !== written[h.path]);
  if (unapproved.length === 0) return null;
  const h = unapproved[0];
  return {
    code: "executable_config_not_approved",
    message: `finish refused: the change touches ${unapproved.map((u) => u.path).join(", ")}, executable configuration (${h.tool}: ${h.when}) that no maintainer approved as such. Restore ${unapproved.length === 1 ? "it" : "them"} to the original content (or delete ${unapproved.length === 1 ? "it" : "them"} if new), or write ${unapproved.length === 1 ? "it" : "them"} with write_file so a maintainer can approve ${unapproved.length === 1 ? "it" : "them"}; then run_tests and finish again.`,
    details: { paths: unapproved.map((u) => u.path) },
  };
}
