// The face of src/process/: what other folders of src/ use of it, and the only file they import from it.
// Generated from their imports; regenerate it rather than editing it. A module loaded lazily (import("…"))
// is imported by its own path, not through this file, which would load it at once.
export { keepHelper } from "./helper-connection.js";
export { hostEnvironment, setHostVariables } from "./host-env.js";
export { ProcessError } from "./process-error.js";
export { runProcess } from "./run-process.js";
export { startProcess } from "./start-process.js";
export type { StartedProcess } from "./start-process.js";
