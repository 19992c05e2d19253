/** agent/context/: what the model sees on each step, and when the conversation is compacted. */
export { buildContext, conversationWindow, type BuildContextOptions, type ConversationWindow } from "./build-context.js";
export { systemPrompt } from "./system-prompt.js";
export { renderRuntimeContext } from "./runtime-context.js";
export { capText, capToolMessage, MAX_TOOL_OUTPUT_BYTES, type CappedText } from "./truncate-output.js";
export { chooseCut, isSafeCut, pinnedBefore, latestUserInstruction } from "./cut.js";
export {
  compact,
  shouldCompact,
  DEFAULT_KEEP_RECENT,
  type CompactionThresholds,
  type CompactOptions,
} from "./compaction.js";
export {
  MemorySummarySchema,
  mergeSummaries,
  readSummary,
  renderSummary,
  emptySummary,
  SUMMARY_FIELDS,
  type MemorySummary,
} from "./memory-summary.js";
export { checkBudget, type BudgetCheck, type BudgetLimit } from "./budget.js";
