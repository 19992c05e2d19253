import type { Ledger } from "../store/ledger.js";
import type { UnmetToolchain } from "../session/types.js";
import { hostFacts } from "../toolchain/host-facts.js";
import { resolveToolchains } from "../toolchain/resolve.js";
import { fetchPinnedToolchains, withFetchNote, withFetchRecord } from "./fetch-toolchains.js";
import type { ResumeOptions } from "./runtime-options.js";
import { walkSessionToolchainsAhead } from "./session-sandbox.js";

/**
 * Resolves the session's toolchains once, before its first model call, and records them. A pin the
 * host cannot satisfy, or a test/setup program no toolchain provides, ends the session `blocked`
 * with what to install: otherwise every test run would fail with exit 127 and finish would be
 * refused until the loop limit. A pinned version the host lacks is first fetched where a fetcher
 * exists for it (./fetch-toolchains.ts); only when that fails is the session blocked, saying why.
 * Returns true when the session is now blocked.
 */
export async function resolveToolchainsOnce(ledger: Ledger, opts: ResumeOptions): Promise<boolean> {
  if (ledger.state.toolchains !== null) return false;
  const test = ledger.state.settings.testCommand ?? opts.repoConfig.test;
  const setup = opts.repoConfig.setup;
  const commands = [...(test ? [{ text: test, source: "test command" }] : []), ...(setup ? [{ text: setup, source: "setup command" }] : [])];
  const input = { root: opts.workspace.root, commands, host: opts.host ?? hostFacts(), operator: opts.toolchains };
  const first = await resolveToolchains(input);
  // A pinned version the host lacks is fetched into the dependency cache, then chosen like an installed one.
  const got = await fetchPinnedToolchains(first.unmet, opts);
  const second = got.fetched.length > 0 ? await resolveToolchains({ ...input, fetched: got.fetched.map((f) => f.installed) }) : first;
  const toolchains = second.toolchains.map((t) => withFetchRecord(t, got.fetched));
  const unmet = second.unmet.map((u) => withFetchNote(u, got.notes));
  const required = unmet.filter((u) => u.required);
  const resolved = { type: "toolchains_resolved" as const, toolchains, unmet };
  // One append: a crash cannot leave the record without the block it implies.
  if (required.length > 0) {
    await ledger.append(resolved, { type: "session_blocked", reason: "toolchain_missing", message: blockedMessage(required) });
    return true;
  }
  await ledger.append(resolved);
  // The first run's layout waits for the toolchains' credential walks: they start as soon as the toolchains are known.
  if (opts.sandbox) walkSessionToolchainsAhead(toolchains, opts.toolchainWalks);
  return false;
}

function blockedMessage(unmet: readonly UnmetToolchain[]): string {
  const items = unmet.map((u) => `${u.name} ${u.wanted === "any" ? "" : `${u.wanted} `}(${u.source}): ${u.install}`);
  return `The repository needs toolchains this host does not have: ${items.join("; ")}. Install them on the host running Patchgate, then start the session again.`;
}
