import type { Message, ToolCall } from "../session/messages.js";

/**
 * Tool call ids as the runtime owns them. Providers send empty ids, reuse `call_0` on every turn, or
 * repeat one id within a turn; results, approvals and the batch digest are keyed by id, so a repeat
 * would let one result answer two calls (and silently drop an approved write). The provider's id is
 * kept whenever it is usable — it is what goes back on the wire, and some providers accept only ids
 * in their own format — and replaced by a fresh one otherwise, the original kept beside it.
 */
export function ownCallIds(calls: readonly ToolCall[], conversation: readonly Message[]): ToolCall[] {
  const used = new Set<string>();
  for (const m of conversation) if (m.role === "assistant") for (const c of m.toolCalls) used.add(c.id);
  let counter = used.size;
  const fresh = (): string => {
    let id: string;
    do id = runtimeId(++counter);
    while (used.has(id));
    return id;
  };
  return calls.map((c) => {
    if (c.id !== "" && !used.has(c.id)) {
      used.add(c.id);
      return c;
    }
    const id = fresh();
    used.add(id);
    return { ...c, id, ...(c.id !== "" && { providerId: c.id }) };
  });
}

/** Nine alphanumerics: the strictest format a provider asks for (Mistral's), accepted by all others. */
function runtimeId(n: number): string {
  return `pg${n.toString(36).padStart(7, "0")}`;
}
