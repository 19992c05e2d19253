import type { ApplicationFunction } from "probot";
import { depsFromEnv, patchgateApp } from "./github/index.js";

/** Probot entry (`probot run ./dist/index.js`): wires the handlers, nothing else. */
const app: ApplicationFunction = (probot, options) => patchgateApp(depsFromEnv((line) => probot.log.info(line)))(probot, options);

export default app;
