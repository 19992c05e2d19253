/** The tools folder's public face: the contract, the registry and each tool. */
export * from "./tool.js";
export { ALL_TOOLS, toolsForMode, findTool, toolSpecs, parseToolArguments, type ParsedArguments } from "./registry.js";
export { planHash, canonicalJson } from "./plan-hash.js";
export { checkTestGate } from "../policy/test-gate.js";
export { checkTodos } from "./update-todos.js";
export { configuredTestCommand } from "./run-tests.js";
export { SETUP_MARKER } from "./test-setup.js";
export { readFileTool } from "./read-file.js";
export { listFilesTool } from "./list-files.js";
export { searchCodeTool } from "./search-code.js";
export { writeFileTool } from "./write-file.js";
export { editFileTool } from "./edit-file.js";
export { runCommandTool } from "./run-command.js";
export { runTestsTool } from "./run-tests.js";
export { updatePlanTool } from "./update-plan.js";
export { submitPlanTool } from "./submit-plan.js";
export { updateTodosTool } from "./update-todos.js";
export { finishTool } from "./finish.js";
