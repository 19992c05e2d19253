// The face of src/depcache/: what other folders of src/ use of it, and the only file they import from it.
// Generated from their imports; regenerate it rather than editing it. A module loaded lazily (import("…"))
// is imported by its own path, not through this file, which would load it at once.
export { besideCommitsSettled } from "./beside-commits.js";
export { dependencyCacheText } from "./cache-text.js";
export { DependencyStore } from "./dependency-store.js";
export type { DependencyCacheHandle } from "./dependency-store.js";
export { openSetupCache } from "./setup-cache.js";
export type { SetupCacheContext } from "./setup-cache.js";
export { ToolchainFetchError } from "./toolchain-fetch/fetch-error.js";
export type { Fetched, ToolchainFetcher } from "./toolchain-fetch/fetcher.js";
export { nodeFetcher } from "./toolchain-fetch/node-fetcher.js";
