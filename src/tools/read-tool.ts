import { lexicalRel, type ToolPath } from "./support/paths.js";
import type { ToolEffect, ToolContext, ToolOutcome } from "./tool.js";
import type { ToolRequest } from "./define-tool.js";

/** Only reads: never mutating, and safe to run again after a crash. */
export const READS: ToolEffect = { risk: "read", mutatesWorkspace: false, idempotent: true };

/**
 * The calls of a tool that only reads the workspace (read_file, list_files, search_code), judged by the
 * policy as a read of the path it names (`path`; absent = the whole workspace). What is left to each tool is where it reads and what it returns.
 */
/** Where a read tool's call landed, once `locate` accepted it. */
export type Located = Extract<ToolPath, { ok: true }>;

export function readCalls<A extends { path?: string }>(spec: {
  /** Where the call reads; its refusal (outside the workspace, not found…) comes before the policy. */
  locate(args: A, ctx: ToolContext): Promise<ToolPath>;
  /** The read itself, at the place `locate` resolved (located again at execution: the tree may have moved). */
  read(args: A, ctx: ToolContext, at: Located): Promise<ToolOutcome>;
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
      // The path as the model gave it; absent = the whole workspace.
      const rel = args.path === undefined ? "" : lexicalRel(args.path);
      return rel === "" ? { kind: "read" } : { kind: "read", path: rel };
    },
  };
}
