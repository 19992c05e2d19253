import type { z } from "zod";
import { lexicalRel, type ToolPath } from "./support/paths.js";
import { defineTool, type ToolContext, type ToolDefinition, type ToolOutcome } from "./tool.js";

type ReadToolSpec<S extends z.ZodType> = Omit<ToolDefinition<S>, "risk" | "mutatesWorkspace" | "idempotent" | "modes" | "precheck" | "request" | "execute"> & {
  /** Where the call reads; its refusal (outside the workspace, not found…) comes before the policy. */
  locate(args: z.infer<S>, ctx: ToolContext): Promise<ToolPath>;
  /** The path as the model gave it; absent = the whole workspace. */
  pathOf(args: z.infer<S>): string | undefined;
  /** The read itself, at the place `locate` resolved (located again at execution: the tree may have moved). */
  read(args: z.infer<S>, ctx: ToolContext, at: Extract<ToolPath, { ok: true }>): Promise<ToolOutcome>;
};

/**
 * A tool that only reads the workspace (read_file, list_files, search_code): offered while planning
 * and executing, never mutating, safe to run again after a crash, and judged by the policy as a read
 * of the path it names. What is left to each tool is where it reads and what it returns.
 */
export function defineReadTool<S extends z.ZodType>(spec: ReadToolSpec<S>): ToolDefinition<S> {
  const { locate, pathOf, read, ...rest } = spec;
  return defineTool<S>({
    ...rest,
    risk: "read",
    mutatesWorkspace: false,
    idempotent: true,
    modes: ["plan", "execute"],
    async precheck(args, ctx) {
      const p = await locate(args, ctx);
      return p.ok ? null : p.error;
    },
    async execute(args, ctx) {
      const at = await locate(args, ctx);
      return at.ok ? read(args, ctx, at) : { result: { ok: false, error: at.error } };
    },
    request(args) {
      const given = pathOf(args);
      const rel = given === undefined ? "" : lexicalRel(given);
      return rel === "" ? { kind: "read", tool: spec.name } : { kind: "read", tool: spec.name, path: rel };
    },
  });
}
