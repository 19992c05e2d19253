import { ProbotOctokit, run } from "probot";
import app, { runningApp } from "./index.js";
import { patchgateOctokit } from "./github/octokit.js";
import { PRODUCTION_LIMITS } from "./github/rate-limits.js";
import { stopOnSignals, withoutProbotSignalHandlers } from "./github/stop-on-signal.js";

/**
 * `npm start`: Probot's server (and, without APP_ID, its manifest setup flow) with Patchgate's
 * GitHub client — throttling and retries on, waiting as GitHub asks. `probot run` cannot be given a
 * client class, which is why this entry exists. On SIGTERM or SIGINT it stops taking deliveries and
 * lets the jobs in hand settle before it exits. Wiring only.
 */
const server = await withoutProbotSignalHandlers(() => run(app, { Octokit: patchgateOctokit(ProbotOctokit, PRODUCTION_LIMITS) }));
stopOnSignals({ refuse: () => server.stop(), drain: runningApp.jobsSettled, log: runningApp.log });
