/**
 * Fixtures the benches share, built by the benches themselves: seeded code-like text, a repository of
 * it, and a model that answers at once. Nothing here loads Patchgate's own modules at run time (only
 * types), so a bench process that must not load them (bench/rss-child.ts's bare side) can use it.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { LLMClient, LLMRequest, LLMResponse } from "../src/agent/llm/types.js";

/** Seeded PRNG (mulberry32): the same script on every run. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const WORDS =
  "const let return if else for await async function import export from value result error parser token line index count state config path file test expect describe node string number".split(
    " ",
  );

/** Code-like text of about `bytes` bytes (real tokens per byte, unlike a repeated letter). */
export function codeText(r: () => number, bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  while (size < bytes) {
    const n = 3 + Math.floor(r() * 9);
    const line = `${"  ".repeat(Math.floor(r() * 4))}${Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]).join(" ")};`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n");
}

/** Files of makeCodeRepo's repository: src/pkg<i % 5>/module<i>.ts. */
export const FILES = 40;

/** A fixture repository of code-like files of 2–16 KB, committed. */
export function makeCodeRepo(dir: string, files = FILES, seed = 3): void {
  const r = rng(seed);
  mkdirSync(path.join(dir, ".github"), { recursive: true });
  writeFileSync(path.join(dir, ".github/patchgate.yml"), 'test: "true"\n');
  for (let i = 0; i < files; i++) {
    mkdirSync(path.join(dir, "src", `pkg${i % 5}`), { recursive: true });
    writeFileSync(path.join(dir, "src", `pkg${i % 5}`, `module${i}.ts`), codeText(r, 2000 + r() * 14000));
  }
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "core.hooksPath=/dev/null", "-c", "user.name=b", "-c", "user.email=b@b", ...args], { cwd: dir, stdio: "pipe" });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "fixture");
}

const answer = (toolCalls: LLMResponse["toolCalls"], content: string | null = null): LLMResponse => ({
  content,
  toolCalls,
  usage: { promptTokens: 3000, completionTokens: 100, estimated: false },
  model: "zero-latency",
  latencyMs: 0,
  retries: 0,
});

const SUMMARY = JSON.stringify({ goals: ["fix the parser"], facts: ["the parser lives in src/pkg0"], decisions: [], files_touched: [], open_questions: [] });

/** Answers at once: read-only calls for `steps` steps, then submit_plan; records the gaps between calls. */
export class ZeroLatencyModel implements LLMClient {
  readonly model = "zero-latency";
  readonly gaps: number[] = [];
  private returned: number | null = null;
  private step = 0;
  private readonly r = rng(11);
  constructor(private readonly steps: number) {}

  async complete(req: LLMRequest): Promise<LLMResponse> {
    if (this.returned !== null) this.gaps.push(performance.now() - this.returned);
    const reply = req.tools.length === 0 ? answer([], SUMMARY) : this.next();
    this.returned = performance.now();
    return reply;
  }

  private next(): LLMResponse {
    const i = this.step++;
    const id = `call_${i}`;
    if (i >= this.steps) return answer([{ id, name: "submit_plan", arguments: JSON.stringify({ summary: "Fix the parser", steps: ["fix", "test"] }) }]);
    const roll = this.r();
    const n = Math.floor(this.r() * FILES);
    if (roll < 0.7) return answer([{ id, name: "read_file", arguments: JSON.stringify({ path: `src/pkg${n % 5}/module${n}.ts` }) }]);
    if (roll < 0.85) return answer([{ id, name: "search_code", arguments: JSON.stringify({ query: "return value", path: `src/pkg${n % 5}` }) }]);
    return answer([{ id, name: "list_files", arguments: JSON.stringify({ path: `src/pkg${n % 5}` }) }]);
  }
}
