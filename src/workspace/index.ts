export * from "./types.js";
export { cloneWorkspace, openWorkspace, type CloneOptions } from "./clone.js";
export { GitWorkspace, type PushOptions, type PushResult } from "./git-workspace.js";
export { rebuildWorkspace } from "./rebuild.js";
export { pathKind } from "./publish-index.js";
export { WorkspaceError, type WorkspaceErrorCode } from "./workspace-error.js";
export { git, gitOk, type GitResult, type GitCallOptions } from "./git.js";
export { walkFiles, findSpecialFiles, specialKind, type WalkEntry, type SpecialEntry, type SpecialKind } from "./tree-walk.js";
export { withDeadline } from "./deadline.js";
