import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import type { OperatorEnv } from "../config/operator-env.js";
import { hostEnvironment } from "../process/index.js";
import type { PatchgateDeps } from "./deps.js";
import { missingKeyWarning, startupLine } from "./startup-env.js";

/**
 * The operator's first lines: a warning when no model key is set, and one line saying what the app
 * runs on. The sandbox is not probed here (a probe starts processes and loads the backends, which an
 * idle app does not): the line names the backends whose programs are on PATH, and the first session
 * probes them as always (docker when its engine answers, else bubblewrap).
 */
export function announceStart(deps: PatchgateDeps, env: OperatorEnv, hostPath = hostEnvironment().PATH ?? ""): void {
  const warning = missingKeyWarning(env);
  if (warning) deps.log(warning, "warn");
  const found = ["docker", "bwrap"].filter((name) => onPath(name, hostPath));
  const sandbox =
    found.length === 0
      ? "none found (neither docker nor bwrap on PATH: commands will be refused)"
      : `${found.map((n) => (n === "bwrap" ? "bubblewrap" : n)).join(" or ")} (probed at the first session)`;
  deps.log(startupLine(env, { queue: deps.queue.durable ? "pg-boss" : "in-process", sandbox }));
}

function onPath(name: string, path: string): boolean {
  return path.split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
