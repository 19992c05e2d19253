export * from "./types.js";
export * from "./messages.js";
export * from "./events.js";
export * from "./state.js";
export * from "./errors.js";
export { reduce, fold } from "./reducer.js";
