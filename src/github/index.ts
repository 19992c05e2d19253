/** The GitHub App: webhook handlers, commands, permissions, publishing. `src/index.ts` wires it into Probot. */
export { patchgateApp } from "./app.js";
export { depsFromEnv, cachedSandbox } from "./env-deps.js";
export type { PatchgateDeps, JobContext } from "./deps.js";
export { parseCommand, HELP_TEXT, type AgentCommand } from "./command.js";
export { toDelivery, HANDLED_EVENTS, APPROVAL_LABELS, isBot } from "./triggers.js";
export { checkPermission } from "./permission.js";
export { patchgateOctokit, type Octokit } from "./octokit.js";
export { PRODUCTION_LIMITS, type GitHubLimits } from "./rate-limits.js";
