import { executableConfigNotApproved } from "../../policy/executable-approval.js";
import { judgeExecutableChange } from "../../policy/install-hooks.js";
import type { ExecutableConfigHit, ToolError } from "../../session/types.js";
import type { ToolContext } from "../tool.js";

/** Whether writing `after` over `before` at `rel` (canonical) changes executable configuration. */
export function executableWrite(rel: string, before: Buffer | string | null, after: string, ctx: ToolContext): ExecutableConfigHit | null {
  const old = before === null ? null : before.toString();
  return judgeExecutableChange(rel, old, after, ctx.repoConfig.policy.executable_config);
}

/**
 * The tools' own check, right before writing: executable configuration is written only under a
 * human's explicit approval of it, whatever the policy decided (the path the policy judged was the
 * lexical one; a symlink may lead to the real one).
 */
export function executableWriteRefusal(hit: ExecutableConfigHit | null, ctx: ToolContext): ToolError | null {
  if (hit === null) return null;
  return ctx.grant?.by === "human" && ctx.grant.executableConfig === true ? null : executableConfigNotApproved(hit);
}
