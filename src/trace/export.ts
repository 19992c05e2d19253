/**
 * A session's full trace as a file (`patchgate trace --json`, eval artefacts, bug reports). Unlike
 * the check run it is not shortened, but it is redacted like every other outbound channel.
 */

import type { StoredEvent } from "../session/events.js";
import { redactDeep } from "../safety/redact.js";

export type TraceFormat = "json" | "jsonl";

/**
 * Redaction walks the events before serialisation rather than the serialised text: a secret that
 * contains a quote or a newline is escaped by JSON.stringify and would no longer match, and a
 * pattern run over JSON text could swallow a closing quote and break the document.
 */
export function exportTrace(events: readonly StoredEvent[], format: TraceFormat, secrets: readonly string[] = []): string {
  const clean = events.map((e) => redactDeep(withoutReasoning(e), secrets));
  if (format === "json") return `${JSON.stringify(clean, null, 2)}\n`;
  return clean.map((e) => `${JSON.stringify(e)}\n`).join("");
}

/** Reads a JSONL trace back (the CLI's `trace --from-file`, tests). Blank lines are ignored. */
export function parseJsonlTrace(text: string): StoredEvent[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line, i) => {
      try {
        return JSON.parse(line) as StoredEvent;
      } catch (e) {
        throw new Error(`trace line ${i + 1} is not JSON: ${(e as Error).message}`, { cause: e });
      }
    });
}

/**
 * Provider reasoning is sealed in the ledger and never leaves it, not even as ciphertext: a trace
 * file is shared, and the key may sit beside it on the same disk.
 */
function withoutReasoning(e: StoredEvent): StoredEvent {
  if (e.type !== "assistant_message" || e.reasoning === undefined) return e;
  return { ...e, reasoning: `[provider reasoning: sealed, ${e.reasoning.length} characters, not exported]` };
}
