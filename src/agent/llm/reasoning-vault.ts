import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { OperatorEnv } from "../../config/operator-env.js";
import type { SealedReasoning } from "../../session/messages.js";
import type { WireReasoning } from "./wire-messages.js";

/**
 * Provider reasoning is the model's private scratchpad: it may quote secrets it saw, and it is not
 * the runtime's to show. It must still go back to the provider (DeepSeek refuses a tool-call turn
 * without it), so it is kept in the ledger encrypted (AES-256-GCM) and opened only to be sent.
 * Check runs, traces and the timeline see an opaque string.
 */
export interface ReasoningVault {
  seal(r: WireReasoning): SealedReasoning;
  /** null when the key is not the one it was sealed with (another machine, a rotated key). */
  open(sealed: SealedReasoning): WireReasoning | null;
}

const PREFIX = "rv1:";

export function keyedVault(key: Buffer): ReasoningVault {
  if (key.length !== 32) throw new Error("the reasoning key must be 32 bytes");
  return {
    seal(r) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(JSON.stringify(r), "utf8"), cipher.final()]);
      return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
    },
    open(sealed) {
      if (!sealed.startsWith(PREFIX)) return null;
      try {
        const raw = Buffer.from(sealed.slice(PREFIX.length), "base64");
        const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
        decipher.setAuthTag(raw.subarray(12, 28));
        const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
        return JSON.parse(text) as WireReasoning;
      } catch {
        return null;
      }
    },
  };
}

/** A key for this process only: enough for tests and one-shot runs, lost on restart. */
export function ephemeralVault(): ReasoningVault {
  return keyedVault(randomBytes(32));
}

/**
 * The key from `PATCHGATE_REASONING_KEY` (64 hex characters; set it where several machines share
 * one store), else `<dataDir>/reasoning.key`, created on first use, readable by its owner only.
 */
export function vaultFromEnv(env: OperatorEnv, dataDir: string): ReasoningVault {
  const configured = env.PATCHGATE_REASONING_KEY;
  if (configured !== undefined) {
    if (!/^[0-9a-fA-F]{64}$/.test(configured)) throw new Error("PATCHGATE_REASONING_KEY must be 64 hex characters (32 bytes)");
    return keyedVault(Buffer.from(configured, "hex"));
  }
  const file = join(dataDir, "reasoning.key");
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600, flag: "wx" });
    } catch (e) {
      // Another process created it first: use theirs.
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
  }
  return keyedVault(Buffer.from(readFileSync(file, "utf8").trim(), "hex"));
}
