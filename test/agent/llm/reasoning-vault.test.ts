import { readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { ephemeralVault, keyedVault, vaultFromEnv } from "../../../src/agent/llm/reasoning-vault.js";
import { exportTrace } from "../../../src/trace/export.js";
import type { StoredEvent } from "../../../src/session/events.js";
import { tempDir } from "../../helpers/git-fixture.js";

describe("provider reasoning at rest", () => {
  const reasoning = { reasoning_content: "the key is sk-abc123, I should not say it" };

  test("sealed: opaque, opened only with the same key", () => {
    const vault = keyedVault(Buffer.alloc(32, 1));
    const sealed = vault.seal(reasoning);
    expect(sealed).toMatch(/^rv1:[A-Za-z0-9+/=]+$/);
    expect(sealed).not.toContain("sk-abc123");
    expect(vault.open(sealed)).toEqual(reasoning);
    expect(keyedVault(Buffer.alloc(32, 2)).open(sealed)).toBeNull();
    expect(ephemeralVault().open(sealed)).toBeNull();
    expect(vault.open(`${sealed.slice(0, -4)}AAAA`)).toBeNull();
  });

  test("the key file is created once, readable by its owner only, and reused by the next process", () => {
    const dir = tempDir("pg-vault-");
    try {
      const sealed = vaultFromEnv({}, dir).seal(reasoning);
      expect(statSync(join(dir, "reasoning.key")).mode & 0o777).toBe(0o600);
      expect(vaultFromEnv({}, dir).open(sealed)).toEqual(reasoning);
      expect(readFileSync(join(dir, "reasoning.key"), "utf8")).toMatch(/^[0-9a-f]{64}$/);
      const key = "ab".repeat(32);
      expect(vaultFromEnv({ PATCHGATE_REASONING_KEY: key }, dir).open(keyedVault(Buffer.from(key, "hex")).seal(reasoning))).toEqual(reasoning);
      expect(() => vaultFromEnv({ PATCHGATE_REASONING_KEY: "short" }, dir)).toThrow("PATCHGATE_REASONING_KEY must be 64 hex characters (32 bytes)");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a trace export leaves the sealed reasoning out", () => {
    const sealed = keyedVault(Buffer.alloc(32, 1)).seal(reasoning);
    const event = { type: "assistant_message", content: null, toolCalls: [], reasoning: sealed, seq: 3, at: "t" } as StoredEvent;
    const out = exportTrace([event], "jsonl");
    expect(out).not.toContain(sealed);
    expect(JSON.parse(out).reasoning).toBe(`[provider reasoning: sealed, ${sealed.length} characters, not exported]`);
  });
});
