export type { Job, Queue, JobErrorHandler } from "./types.js";
export { InProcessQueue } from "./in-process.js";
export { AbortRegistry } from "./abort-registry.js";
