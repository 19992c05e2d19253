import type { Todo } from "../../src/session/types.js";
import { updateTodosTool } from "../../src/tools/update-todos.js";
import { harnessFactory } from "./helpers/harness-factory.js";
import { codeOf } from "./helpers/tool-harness.js";

const todo = (id: string, status: Todo["status"], content = `task ${id}`): Todo => ({ id, content, status });

describe("update_todos", () => {
  const make = harnessFactory();

  test("a valid list is recorded and counted", async () => {
    const h = await make({}, { mode: "plan" });
    const todos = [todo("1", "in_progress"), todo("2", "pending")];
    const { result, events } = await h.call(updateTodosTool, { todos });
    expect(result).toEqual({ ok: true, data: { todos, counts: { pending: 1, in_progress: 1, completed: 0, cancelled: 0 } } });
    expect(events).toEqual([{ type: "todos_updated", todos }]);
    expect(h.state.todos).toEqual(todos);
  });

  test("two in_progress todos are invalid_todos", async () => {
    const h = await make({});
    const { result } = await h.call(updateTodosTool, { todos: [todo("1", "in_progress"), todo("2", "in_progress")] });
    expect(result).toEqual({
      ok: false,
      error: {
        code: "invalid_todos",
        message: "at most one todo may be in_progress; you marked 2 (1, 2). Keep one in_progress and set the others to pending.",
        details: { in_progress: ["1", "2"] },
      },
    });
  });

  test("duplicate ids are invalid_todos", async () => {
    const h = await make({});
    const { result } = await h.call(updateTodosTool, { todos: [todo("1", "pending"), todo("1", "pending", "again")] });
    expect(result.ok ? null : [result.error.code, result.error.details]).toEqual(["invalid_todos", { duplicate_ids: ["1"] }]);
  });

  test("completing a todo that was not on the previous list is unknown_todo", async () => {
    const h = await make({});
    await h.call(updateTodosTool, { todos: [todo("1", "in_progress")] });
    const { result } = await h.call(updateTodosTool, { todos: [todo("1", "completed"), todo("9", "completed")] });
    expect(result).toEqual({
      ok: false,
      error: {
        code: "unknown_todo",
        message: "cannot complete todo(s) 9: they were not on your previous list. Add them as pending or in_progress first.",
        details: { unknown_ids: ["9"], known_ids: ["1"] },
      },
    });
    expect(h.state.todos).toEqual([todo("1", "in_progress")]);
  });

  test("completing a known todo is fine", async () => {
    const h = await make({});
    await h.call(updateTodosTool, { todos: [todo("1", "in_progress"), todo("2", "pending")] });
    expect(codeOf((await h.call(updateTodosTool, { todos: [todo("1", "completed"), todo("2", "in_progress")] })).result)).toBe("ok");
  });

  test("a todo not seen before may be added, as long as it is not completed", async () => {
    const h = await make({});
    await h.call(updateTodosTool, { todos: [todo("1", "pending")] });
    expect(codeOf((await h.call(updateTodosTool, { todos: [todo("1", "pending"), todo("2", "in_progress"), todo("3", "cancelled")] })).result)).toBe("ok");
  });

  test("an empty list clears the todos", async () => {
    const h = await make({});
    await h.call(updateTodosTool, { todos: [todo("1", "pending")] });
    await h.call(updateTodosTool, { todos: [] });
    expect(h.state.todos).toEqual([]);
  });

  test("execute checks the rules itself, precheck or not", async () => {
    const h = await make({});
    const outcome = await updateTodosTool.execute({ todos: [todo("1", "in_progress"), todo("2", "in_progress")] }, h.ctx());
    expect([codeOf(outcome.result), outcome.events]).toEqual(["invalid_todos", undefined]);
  });

  test("an unknown status is a schema error", () => {
    expect(updateTodosTool.input.safeParse({ todos: [{ id: "1", content: "c", status: "done" }] }).success).toBe(false);
  });
});
