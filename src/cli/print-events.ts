import type { Ledger } from "../store/ledger.js";
import { secretsFromEnv } from "../safety/secrets.js";
import { formatTimelineRow, timelineRows } from "./timeline-format.js";
import { hostEnvironment } from "../process/index.js";

/** Prints every event as it is appended (redacted, one line each), so a local run is watchable. */
export function printEvents(ledger: Ledger, out: NodeJS.WritableStream): void {
  const secrets = secretsFromEnv(hostEnvironment());
  ledger.onEvent((event, state) => {
    const [row] = timelineRows([event], secrets);
    if (row) out.write(formatTimelineRow({ ...row, step: state.step }) + "\n");
  });
}
