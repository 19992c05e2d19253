/** Toolchains where people install them (rustup, pyenv, nvm, fnm, asdf, mise, Go trees), resolved on the host for the sandbox. */
export { resolveToolchains, type ResolveInput } from "./resolve.js";
export { hostFacts } from "./host-facts.js";
export { operatorRefusal, type OperatorToolchain } from "./operator.js";
export type { HostFacts, ToolchainRecord, ToolchainResolution, UnmetToolchain } from "./types.js";
