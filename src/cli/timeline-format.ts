import { timelineRows, type TimelineRow } from "../trace/timeline.js";

export { timelineRows };

/** One terminal line per timeline row: `time  #step  event  detail`. */
export function formatTimelineRow(row: TimelineRow): string {
  return `${row.time}  #${String(row.step).padStart(3)}  ${row.event.padEnd(22)} ${row.detail}`;
}
