import type { Message } from "../../../src/session/messages.js";

/** mulberry32: a tiny seeded PRNG, so that every generated case can be reproduced from its seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A conversation shaped like the reducer builds them: the task first, then assistant turns with 0–3
 * tool calls each followed by their results, sometimes a user message (approval, nudge, comment),
 * and sometimes a user message landing between the results of one batch (an approval mid-batch).
 */
export function generateConversation(seed: number, turns: number): Message[] {
  const r = rng(seed);
  const conv: Message[] = [{ role: "user", content: "task" }];
  let ids = 0;
  for (let t = 0; t < turns; t++) {
    const roll = r();
    if (roll < 0.12) {
      conv.push({ role: "user", content: `user ${t}` });
      continue;
    }
    const n = Math.floor(r() * 4);
    const calls = Array.from({ length: n }, () => ({ id: `c${++ids}`, name: "read_file", arguments: "{}" }));
    conv.push({ role: "assistant", content: n === 0 ? `text ${t}` : null, toolCalls: calls });
    calls.forEach((c, i) => {
      if (i > 0 && r() < 0.1) conv.push({ role: "user", content: `approved mid-batch ${t}` });
      conv.push({ role: "tool", toolCallId: c.id, content: `result ${c.id}` });
    });
  }
  return conv;
}

/** Tool-pair integrity of a message list: every result has its call before it, every call its result after it. */
export function pairProblems(messages: readonly Message[], allResults: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const called = new Set<string>();
  const answered = new Set<string>();
  for (const m of messages) {
    if (m.role === "assistant") for (const c of m.toolCalls) called.add(c.id);
    if (m.role === "tool") {
      if (!called.has(m.toolCallId)) problems.push(`result ${m.toolCallId} without its call`);
      answered.add(m.toolCallId);
    }
  }
  for (const id of called) if (allResults.has(id) && !answered.has(id)) problems.push(`call ${id} without its result`);
  return problems;
}
