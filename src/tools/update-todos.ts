import { z } from "zod";
import type { Todo, ToolError } from "../session/types.js";
import { defineTool } from "./define-tool.js";
import { ok, type ToolContext } from "./tool.js";

const DESCRIPTION = `Replace your todo list (send the FULL list every time). Use it to track the steps of the approved plan.
- status: pending, in_progress, completed or cancelled. At most ONE todo may be in_progress.
- ids must be unique and stay the same for the same todo across updates.
- A todo can only be marked completed if it was already on your previous list.`;

const input = z.strictObject({
  todos: z
    .array(
      z.strictObject({
        id: z.string().trim().min(1).describe("Stable identifier of the todo, e.g. `1` or `fix-parser`."),
        content: z.string().trim().min(1).describe("What this todo is, in one line."),
        status: z.enum(["pending", "in_progress", "completed", "cancelled"]).describe("Current status."),
      }),
    )
    .describe("The complete todo list, in order."),
});

/** Gate 2 (DESIGN §3) plus list hygiene; the reducer enforces the in_progress rule again. */
function checkTodos(todos: readonly Todo[], previous: readonly Todo[]): ToolError | null {
  const seen = new Set<string>();
  const dupes = new Set<string>();
  for (const t of todos) (seen.has(t.id) ? dupes : seen).add(t.id);
  if (dupes.size > 0) {
    return { code: "invalid_todos", message: `todo ids must be unique; repeated: ${[...dupes].join(", ")}.`, details: { duplicate_ids: [...dupes] } };
  }
  const active = todos.filter((t) => t.status === "in_progress").map((t) => t.id);
  if (active.length > 1) {
    return {
      code: "invalid_todos",
      message: `at most one todo may be in_progress; you marked ${active.length} (${active.join(", ")}). Keep one in_progress and set the others to pending.`,
      details: { in_progress: active },
    };
  }
  // Completing something never planned hides work that was not tracked; the model must list it first.
  const known = new Set(previous.map((t) => t.id));
  const unknown = todos.filter((t) => t.status === "completed" && !known.has(t.id)).map((t) => t.id);
  if (unknown.length > 0) {
    return {
      code: "unknown_todo",
      message: `cannot complete todo(s) ${unknown.join(", ")}: they were not on your previous list. Add them as pending or in_progress first.`,
      details: { unknown_ids: unknown, known_ids: [...known] },
    };
  }
  return null;
}

function counts(todos: readonly Todo[]): Record<Todo["status"], number> {
  const c = { pending: 0, in_progress: 0, completed: 0, cancelled: 0 };
  for (const t of todos) c[t.status]++;
  return c;
}

function judge(todos: Todo[], ctx: ToolContext): ToolError | null {
  return checkTodos(todos, ctx.state.todos);
}

export const updateTodosTool = defineTool({
  name: "update_todos",
  version: "1",
  description: DESCRIPTION,
  input,
  effect: { risk: "meta", mutatesWorkspace: false, idempotent: true },
  modes: ["plan", "execute"],
  async precheck(args, ctx) {
    return judge(args.todos, ctx);
  },
  request() {
    return { kind: "meta" };
  },
  async execute(args, ctx) {
    const refused = judge(args.todos, ctx);
    if (refused) return { result: { ok: false, error: refused } };
    const todos = args.todos.map((t) => ({ id: t.id, content: t.content, status: t.status }));
    return { result: ok({ todos, counts: counts(todos) }), events: [{ type: "todos_updated", todos }] };
  },
});
