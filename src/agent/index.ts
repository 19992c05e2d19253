export { resumeSession } from "./run-session.js";
export { createSession, prepareWorkspace, reopenWorkspace, DEFAULT_SETTINGS, type WorkspaceSource } from "./session-service.js";
export * from "./approvals.js";
export type { ResumeOutcome } from "./outcome.js";
export type { ResumeOptions } from "./runtime-options.js";
export { batchDigest } from "./batch-digest.js";
export * from "./llm/index.js";
