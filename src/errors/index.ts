// The face of src/errors/: what other folders of src/ use of it, and the only file they import from it.
// Generated from their imports; regenerate it rather than editing it. A module loaded lazily (import("…"))
// is imported by its own path, not through this file, which would load it at once.
export { FatalError, HandledError } from "./patchgate-error.js";
