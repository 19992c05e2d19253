import { formatInt, formatUsd } from "../../safety/markdown.js";
import { bullets, code, heading, type Block, type Inline } from "./doc.js";
import type { SessionView } from "./session-view.js";
import { duration } from "./words.js";

/** Cost and time: what the session consumed, and how much of its duration was humans deciding. */
const ms = (a: string, b: string): number => Math.max(0, Date.parse(b) - Date.parse(a)) || 0;

export function costBlocks(v: SessionView): Block[] {
  const s = v.state;
  const u = s.usage;
  const est = u.estimated ? " (estimated)" : "";
  const models = [...new Set(v.events.flatMap((e) => (e.type === "llm_called" ? [e.model] : [])))];
  const model: Inline[] = ["Model: ", ...(models.length > 0 ? models : [s.model]).flatMap((m, i) => (i === 0 ? [code(m)] : [", ", code(m)]))];
  const cost = u.costUsd === null ? `unknown (no price for model ${s.model})` : `${formatUsd(u.costUsd)}${est}`;
  const first = v.events[0]?.at;
  const last = v.events.at(-1)?.at;
  const wall = first && last ? ms(first, last) : 0;
  const waited = v.waits.reduce((sum, w) => sum + ms(w.from, w.until ?? last ?? w.from), 0);
  const stillWaiting = v.waits.some((w) => w.until === null) ? " (still waiting)" : "";
  return [
    heading(3, "Cost"),
    bullets([
      model,
      [`${u.calls} model call${u.calls === 1 ? "" : "s"} · ${formatInt(u.promptTokens)} prompt + ${formatInt(u.completionTokens)} completion tokens${est}`],
      [`Cost: ${cost}`],
      [`Wall time: ${duration(wall)} · waiting for humans: ${duration(waited)}${stillWaiting}`],
    ]),
  ];
}
