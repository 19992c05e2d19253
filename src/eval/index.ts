// The face of src/eval/: what other folders of src/ use of it, and the only file they import from it.
// Generated from their imports; regenerate it rather than editing it. A module loaded lazily (import("…"))
// is imported by its own path, not through this file, which would load it at once.
export { builtinCasesDir } from "./builtin-cases.js";
export { loadCases } from "./case-loader.js";
export type { EvalCase } from "./case-schema.js";
export { readRecording, UnreplayableSessionError } from "./replay/recording.js";
export type { Recording } from "./replay/recording.js";
export { replaySession } from "./replay/replay-session.js";
export type { ReplayResult } from "./replay/replay-session.js";
export { formatDuration, renderMarkdown } from "./report-markdown.js";
export type { CaseResult } from "./report.js";
export type { LLMMode } from "./runner.js";
export { scriptFromEvents } from "./script-from-events.js";
export { CaseScriptLLM } from "./script-llm.js";
export { expandScript } from "./script-schema.js";
export { hostSecrets } from "./secret-scan.js";
export { runSuite, writeReport } from "./suite.js";
