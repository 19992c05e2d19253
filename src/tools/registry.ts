import { z } from "zod";
import type { ToolSpec } from "./tool-spec.js";
import type { PermissionMode } from "../session/types.js";
import { deleteFileTool } from "./delete-file.js";
import { editFileTool } from "./edit-file.js";
import { finishTool } from "./finish.js";
import { listFilesTool } from "./list-files.js";
import { moveFileTool } from "./move-file.js";
import { readFileTool } from "./read-file.js";
import { reportBlockedTool } from "./report-blocked.js";
import { runCommandTool } from "./run-command.js";
import { runTestsTool } from "./run-tests.js";
import { searchCodeTool } from "./search-code.js";
import { submitPlanTool } from "./submit-plan.js";
import { askHumanTool } from "./ask-human.js";
import { requestGrantTool } from "./request-grant.js";
import type { ToolDefinition } from "./tool.js";
import { offeredIn } from "../policy/plan-gate.js";
import { updatePlanTool } from "./update-plan.js";
import { updateTodosTool } from "./update-todos.js";
import { writeFileTool } from "./write-file.js";

/**
 * Every tool, in the order the model sees them: look, change, run, then bookkeeping. Frozen: a
 * caller that wants another set passes its own array instead of editing this one.
 */
export const ALL_TOOLS: ToolDefinition[] = Object.freeze<ToolDefinition[]>([
  readFileTool,
  listFilesTool,
  searchCodeTool,
  writeFileTool,
  editFileTool,
  moveFileTool,
  deleteFileTool,
  runCommandTool,
  runTestsTool,
  updatePlanTool,
  submitPlanTool,
  askHumanTool,
  requestGrantTool,
  updateTodosTool,
  finishTool,
  reportBlockedTool,
]) as ToolDefinition[];

/** Gate 1 (policy/plan-gate.ts): a mode's tools are the only ones the model is offered. */
export function toolsForMode(mode: PermissionMode): ToolDefinition[] {
  return offeredIn(ALL_TOOLS, mode);
}

export function findTool(name: string): ToolDefinition | undefined {
  return ALL_TOOLS.find((t) => t.name === name);
}

/** What the LLM client sends: the JSON Schema of the arguments as the model writes them. */
// A tool's spec never changes, and rendering its JSON Schema on every step was a millisecond of each
// step's work: built once per tool definition (MCP tools are new objects when their server's list changes).
const specs = new WeakMap<ToolDefinition, ToolSpec>();

export function toolSpecs(tools: readonly ToolDefinition[]): ToolSpec[] {
  return tools.map((t) => {
    const known = specs.get(t);
    if (known) return known;
    const spec = specOf(t);
    specs.set(t, spec);
    return spec;
  });
}

function specOf(t: ToolDefinition): ToolSpec {
  if (t.parameters) return { name: t.name, description: t.description, parameters: t.parameters };
  // io "input": fields with defaults are optional for the model.
  const { $schema: _dialect, ...parameters } = z.toJSONSchema(t.input, { io: "input" }) as Record<string, unknown>;
  return { name: t.name, description: t.description, parameters };
}

// Validation belongs to the tool shape; the registry offers it beside the tools it looks up.
