import { lexicalRel, type ToolPath } from "./support/paths.js";
import type { ToolEffect, ToolContext, ToolOutcome } from "./tool.js";
import type { ToolRequest } from "./define-tool.js";

/** Only reads: never mutating, and safe to run again after a crash. */
export const READS: ToolEffect = { risk: "read", mutatesWorkspace: false, idempotent: true };

/**
 * The calls of a tool that only reads the workspace (read_file, list_files, search_code), judged by the
 * policy as a read of the path it names. What is left to each tool is where it reads and what it returns.
 */
export function readCalls<A>(spec: {
  /** Where the call reads; its refusal (outside the workspace, not found…) comes before the policy. */
  locate(args: A, ctx: ToolContext): Promise<ToolPath>;
  /** The path as the model gave it; absent = the whole workspace. */
  pathOf(args: A): string | undefined;
  /** The read itself, at the place `locate` resolved (located again at execution: the tree may have moved). */
  read(args: A, ctx: ToolContext, at: Extract<ToolPath, { ok: true }>): Promise<ToolOutcome>;
}) {
  return {
    async precheck(args: A, ctx: ToolContext) {
      const p = await spec.locate(args, ctx);
      return p.ok ? null : p.error;
    },
    async execute(args: A, ctx: ToolContext): Promise<ToolOutcome> {
      const at = await spec.locate(args, ctx);
      return at.ok ? spec.read(args, ctx, at) : { result: { ok: false, error: at.error } };
    },
    request(args: A): ToolRequest {
      const given = spec.pathOf(args);
      const rel = given === undefined ? "" : lexicalRel(given);
      return rel === "" ? { kind: "read" } : { kind: "read", path: rel };
    },
  };
}
