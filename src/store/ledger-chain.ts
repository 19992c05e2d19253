import { createHash } from "node:crypto";
import { canonicalJson } from "../session/canonical-json.js";
import type { SessionEvent } from "../session/events.js";

/**
 * The ledger's hash chain. Every stored event carries `prev` (the hash of the event before it; for the
 * first, a genesis value derived from the session id) and `hash`, computed where it is appended, in the
 * transaction that assigns its seq. Changing, removing, inserting or reordering a stored event breaks
 * the chain at that event; rewriting the whole chain from there on does not, which is what a signed
 * head (the receipt's ledgerHead) is for.
 *
 * The encoding, defined here once (the SQLite writer thread runs LINK_SOURCE, the same text):
 *   hash = hex(sha256(utf8(JSON.stringify([CHAIN_VERSION, sessionId, seq, at, prev]) + "\n" + canonicalJson(event))))
 *   genesis = hex(sha256(utf8(JSON.stringify([CHAIN_VERSION, sessionId]))))
 * The header is a JSON array, so no field can run into the next; the event, last, needs no delimiter.
 * `event` is the SessionEvent as stored (without seq, at, prev, hash).
 */
const CHAIN_VERSION = "patchgate-ledger/1";

/**
 * CommonJS text of the link function, for the writer thread (which loads no TypeScript) and for
 * `linkHash` below: one definition, two places it runs. `body` must already be canonical JSON.
 */
export const LINK_SOURCE = `
function ledgerLink(createHash, sessionId, seq, at, body, prev) {
  return createHash("sha256").update(JSON.stringify(["${CHAIN_VERSION}", sessionId, seq, at, prev]) + "\\n" + body).digest("hex");
}
function ledgerGenesis(createHash, sessionId) {
  return createHash("sha256").update(JSON.stringify(["${CHAIN_VERSION}", sessionId])).digest("hex");
}
`;

type LinkFn = (hash: typeof createHash, sessionId: string, seq: number, at: string, body: string, prev: string) => string;
type GenesisFn = (hash: typeof createHash, sessionId: string) => string;
// The source is this module's constant text, never input.
const compiled = new Function(`${LINK_SOURCE}\nreturn { ledgerLink, ledgerGenesis };`)() as { ledgerLink: LinkFn; ledgerGenesis: GenesisFn };

/** The `prev` of a session's first event. */
export function genesisHash(sessionId: string): string {
  return compiled.ledgerGenesis(createHash, sessionId);
}

/** The hash of one event given its place (seq, at), its canonical JSON and the hash before it. */
export function linkHash(sessionId: string, seq: number, at: string, canonicalEvent: string, prev: string): string {
  return compiled.ledgerLink(createHash, sessionId, seq, at, canonicalEvent, prev);
}

/** One stored event with its chain fields, as the store reads it back (null: a row never chained). */
export interface LedgerLink {
  seq: number;
  at: string;
  event: SessionEvent;
  prev: string | null;
  hash: string | null;
}

export type ChainVerdict = { ok: true; head: string } | { ok: false; brokenAt: number; type: string; reason: string };

/**
 * Walks the chain from genesis and stops at the first link that does not hold, naming that event.
 * `links` are in stored order. An empty ledger is intact, its head the genesis value.
 */
export function verifyLedgerChain(sessionId: string, links: readonly LedgerLink[]): ChainVerdict {
  let prev = genesisHash(sessionId);
  for (const [i, l] of links.entries()) {
    const broken = (reason: string): ChainVerdict => ({ ok: false, brokenAt: l.seq, type: l.event.type, reason });
    if (l.seq !== i) {
      return broken(l.seq > i ? `event ${i} is missing before it` : `it is out of order (expected seq ${i})`);
    }
    if (l.hash === null || l.prev === null) return broken("it has no chain hash");
    if (l.prev !== prev) {
      return broken(
        i === 0 ? "its prev is not the session's genesis value" : `its prev is not the hash of event ${i - 1}: an event was removed, inserted or reordered`,
      );
    }
    if (linkHash(sessionId, l.seq, l.at, canonicalJson(l.event), l.prev) !== l.hash) {
      return broken("its content, seq or time does not match its hash: it was changed after it was stored");
    }
    prev = l.hash;
  }
  return { ok: true, head: prev };
}

/**
 * The chain over events stored before there was one, in stored order: what both stores' migrations
 * write. The existing seq and time are kept as they are, so the chain vouches for the ledger as found.
 */
export function chainOf(sessionId: string, rows: readonly { seq: number; at: string; event: unknown }[]): { seq: number; prev: string; hash: string }[] {
  let prev = genesisHash(sessionId);
  return rows.map((r) => {
    const hash = linkHash(sessionId, r.seq, r.at, canonicalJson(r.event), prev);
    const link = { seq: r.seq, prev, hash };
    prev = hash;
    return link;
  });
}
