import { ProbotOctokit, run } from "probot";
import app from "./index.js";
import { patchgateOctokit } from "./github/octokit.js";
import { PRODUCTION_LIMITS } from "./github/rate-limits.js";

/**
 * `npm start`: Probot's server (and, without APP_ID, its manifest setup flow) with Patchgate's
 * GitHub client — throttling and retries on, waiting as GitHub asks. `probot run` cannot be given a
 * client class, which is why this entry exists. Wiring only.
 */
await run(app, { Octokit: patchgateOctokit(ProbotOctokit, PRODUCTION_LIMITS) });
