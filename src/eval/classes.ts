/**
 * Failure classes: one word for why a session did not produce the change the case wanted.
 * Each is derived from the session's events (plus the runner's own verdict on the final tree),
 * never from the case's script, so a real model's session is classified the same way.
 */
const FAILURE_CLASSES = {
  plan_not_approved: "A write or command was attempted before the plan was approved (plan gate).",
  edit_without_read: "An existing file was edited without being read after its last change (edit-context gate).",
  bad_patch: "An edit's search text did not match the file, so nothing was applied.",
  path_denied: "A path outside the workspace or a protected path was refused.",
  command_denied: "The approval policy refused a command (dangerous shell, denied prefix).",
  denied_by_human: "A human denied a pending batch of writes or commands.",
  mcp_denied: "The policy refused an MCP tool call (a destructive tool of an untrusted server, an operator's deny, no human to ask).",
  mcp_server_failed: "An MCP server did not start or stopped mid-session; its tools disappeared.",
  invalid_tool_call: "The model called an unknown tool or sent arguments that failed validation.",
  tests_not_run: "finish was attempted without a passing test run on the current tree.",
  tests_failed: "The tests failed: the agent's last run never passed, or the runner's own run failed after finish.",
  wrong_result: "The tests pass but a check of the case (file content, summary) fails.",
  tests_weakened:
    "The tests passed because the change weakened them (a skip, a deleted or emptied test, fewer assertions, relaxed test configuration, fewer tests run): finish held it as a test_integrity request that no human approved.",
  secret_leaked: "A secret from the runner's environment appeared in the trace or the diff.",
  loop_limit: "The session used all its model calls for one resume without finishing.",
  budget_exceeded: "The session exceeded its token, cost or step budget.",
  llm_error: "The model provider failed (non-retryable status, retries exhausted, or empty answers).",
  runtime_error: "The runtime ended the session for another reason (workspace, config, internal).",
  cancelled: "The session was cancelled.",
  toolchain_missing:
    "The repository needs a toolchain (a pinned version, or a program its test or setup line runs) that the host does not have: blocked before the first model call.",
  awaiting_human: "The session is parked on an approval that the case did not answer.",
} as const;

export type FailureClass = keyof typeof FAILURE_CLASSES;

export const FAILURE_CLASS_NAMES = Object.keys(FAILURE_CLASSES) as [FailureClass, ...FailureClass[]];

/** Tool error codes (from the runtime's tool results) and the class each one counts as. */
export const TOOL_ERROR_CLASS: Readonly<Record<string, FailureClass>> = {
  plan_not_approved: "plan_not_approved",
  edit_without_read: "edit_without_read",
  bad_patch: "bad_patch",
  path_denied: "path_denied",
  command_denied: "command_denied",
  denied_by_human: "denied_by_human",
  mcp_denied: "mcp_denied",
  mcp_server_unavailable: "mcp_server_failed",
  tests_not_passed: "tests_not_run",
  test_integrity_denied: "tests_weakened",
  test_integrity_refused: "tests_weakened",
  unknown_tool: "invalid_tool_call",
  invalid_arguments: "invalid_tool_call",
};

/** session_failed reasons and their class; anything not listed is a runtime_error. */
export const FAILURE_REASON_CLASS: Readonly<Record<string, FailureClass>> = {
  llm_error: "llm_error",
  llm_empty: "llm_error",
  loop_limit: "loop_limit",
  budget_exceeded: "budget_exceeded",
};

/** How a session ended, as the events tell it. */
export type SessionOutcome = "done" | "failed" | "cancelled" | "blocked" | "parked" | "incomplete";

export const SESSION_OUTCOMES = ["done", "failed", "cancelled", "blocked", "parked", "incomplete"] as const;

/** session_blocked reasons and their class. */
export const BLOCKED_REASON_CLASS: Readonly<Record<string, FailureClass>> = {
  toolchain_missing: "toolchain_missing",
};
