/** The policy folder's public face: the gates and the approval policy. Import from here, not from the files. */
export * from "./types.js";
export { evaluate, type PolicyContext } from "./approval-policy.js";
export { BUILTIN_RULE } from "./builtin-rules.js";
export { defaultRules, RULE, repoAllowRuleId, repoDenyRuleId, type DefaultRuleOptions } from "./default-rules.js";
export { commandText, shellScript } from "./command-verdict.js";
export { parseArgv, parseCommandLine, type CommandLine, type CommandPart, type ParsedCommandLine, type Redirect } from "./command-line.js";
export type { CommandParseError, CommandParseErrorCode } from "./shell-tokens.js";
export { confineInWorkspace, resolveInWorkspace, isProtectedPath, PROTECTED_PATH_GLOBS, type ConfinedPath, type ResolvedPath } from "./path-confinement.js";
export { checkEditContext, checkLinesSeen, contentHash } from "./edit-context.js";
export { checkPlanGate, offeredIn, planGateDenial } from "./plan-gate.js";
export { checkTestGate } from "./test-gate.js";
export { checkPublishable, checkPublishedPaths, checkWrittenContent } from "./published-paths.js";
export { turnRefusal } from "./turn-rules.js";
export { assertPublishingTestedTree, publication, publishableOrFail, TreeChangedError } from "./publish-guard.js";
export { applyStandingAnswers, type StandingAnswers } from "./standing-answers.js";
export { classifyMcpTool, nameWords, type McpRiskAssessment } from "./mcp-risk.js";
export { mcpRules, MCP_RULE, mcpOperatorAllowId, mcpOperatorDenyId, toolNameMatches, type McpServerRules } from "./mcp-rules.js";
