import type { Ledger } from "../store/ledger.js";
import { formatTimelineRow, timelineRows } from "./timeline-format.js";

/** Prints every event as it is appended (redacted, one line each), so a local run is watchable. */
export function printEvents(ledger: Ledger, out: NodeJS.WritableStream, secrets: readonly string[]): void {
  ledger.onEvent((event, state) => {
    const [row] = timelineRows([event], secrets);
    if (row) out.write(formatTimelineRow({ ...row, step: state.step }) + "\n");
  });
}
