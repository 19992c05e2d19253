import { applyDotEnv } from "./config/dot-env.js";
import { processOperatorEnv } from "./config/operator-env.js";
import { startupEnvProblem } from "./github/startup-env.js";

/**
 * `npm start`: Probot's server (and, without APP_ID, its manifest setup flow) with Patchgate's
 * GitHub client — throttling and retries on, waiting as GitHub asks. `probot run` cannot be given a
 * client class, which is why this entry exists. On SIGTERM or SIGINT it stops taking deliveries and
 * lets the jobs in hand settle before it exits. Wiring only.
 *
 * `.env` is applied first, as Probot applies it, but before any module reads a variable; then every
 * variable is checked, so a bad one stops the start in one line. The app loads only after that.
 */
try {
  applyDotEnv();
} catch (e) {
  exitWith((e as Error).message);
}
const problem = startupEnvProblem(processOperatorEnv());
if (problem !== null) exitWith(problem);

// Sessions run here: the spawn helper, once a session started it, stays for the app's life.
(await import("./process/index.js")).keepHelper({ startNow: false });

// Not for memory: these load after .env is applied and checked, because modules read variables as they load.
const { ProbotOctokit, run } = await import("probot");
const { default: app, runningApp } = await import("./index.js");
const { patchgateOctokit } = await import("./github/octokit.js");
const { PRODUCTION_LIMITS } = await import("./github/rate-limits.js");
const { stopOnSignals, withoutProbotSignalHandlers } = await import("./github/stop-on-signal.js");
const server = await withoutProbotSignalHandlers(() => run(app, { Octokit: patchgateOctokit(ProbotOctokit, PRODUCTION_LIMITS) }));
stopOnSignals({ refuse: () => server.stop(), drain: runningApp.jobsSettled, log: runningApp.log });

function exitWith(message: string): never {
  process.stderr.write(`patchgate: ${message}\n`);
  process.exit(1);
}
