import type { SessionEvent } from "../../src/session/events.js";
import { canonicalJson } from "../../src/session/canonical-json.js";
import { genesisHash, linkHash, verifyLedgerChain, type LedgerLink } from "../../src/store/ledger-chain.js";
import { created, prepared, submitted } from "../helpers/session-events.js";

/**
 * The chain's encoding, pinned by vectors computed outside this code (Python's hashlib and json, by
 * hand from the encoding the module documents), then each way a ledger can be edited by hand.
 */
const AT = "2026-12-06T05:00:00.000Z";

describe("the encoding", () => {
  test("genesis and the first link match vectors computed independently", () => {
    const genesis = genesisHash("s-1");
    expect(genesis).toBe("3b49fc12946209be168a04fec1db6996f8b9f951e25274d584c5f757c03a0201");
    const body = canonicalJson({ type: "user_message", content: "héllo" });
    expect(body).toBe('{"content":"héllo","type":"user_message"}');
    expect(linkHash("s-1", 0, AT, body, genesis)).toBe("b448933024da324afcf29a9d57d7067097ad577e233965cada37e61ed70d9824");
  });

  test("an event gives the same text appended and parsed back from a store, in any key order", () => {
    for (const e of [created("s1"), prepared, submitted()] as SessionEvent[]) {
      const stored = canonicalJson(e);
      expect(canonicalJson(JSON.parse(JSON.stringify(e)))).toBe(stored);
      expect(canonicalJson(JSON.parse(stored))).toBe(stored);
      const reversed = Object.fromEntries(Object.entries(e).reverse());
      expect(canonicalJson(reversed)).toBe(stored);
    }
  });
});

/** A correctly chained ledger of `events`, as a store would write it. */
function chain(sessionId: string, events: SessionEvent[]): LedgerLink[] {
  let prev = genesisHash(sessionId);
  return events.map((event, seq) => {
    const at = `2026-12-06T05:00:0${seq}.000Z`;
    const hash = linkHash(sessionId, seq, at, canonicalJson(event), prev);
    const link = { seq, at, event, prev, hash };
    prev = hash;
    return link;
  });
}

const events: SessionEvent[] = [created("s1"), prepared, { type: "user_message", content: "one" }, { type: "user_message", content: "two" }, submitted()];

describe("verifyLedgerChain", () => {
  test("an intact ledger verifies, its head the last event's hash; an empty one's head is genesis", () => {
    const links = chain("s1", events);
    expect(verifyLedgerChain("s1", links)).toEqual({ ok: true, head: links[4]!.hash });
    expect(verifyLedgerChain("s1", [])).toEqual({ ok: true, head: genesisHash("s1") });
  });

  test("the same events under another session id do not verify: the id is in every link", () => {
    expect(verifyLedgerChain("s2", chain("s1", events))).toMatchObject({ ok: false, brokenAt: 0, type: "session_created" });
  });

  test("one character changed in an old event: broken at that event, not before", () => {
    const links = chain("s1", events);
    links[2] = { ...links[2]!, event: { type: "user_message", content: "onE" } };
    expect(verifyLedgerChain("s1", links)).toEqual({
      ok: false,
      brokenAt: 2,
      type: "user_message",
      reason: "its content, seq or time does not match its hash: it was changed after it was stored",
    });
  });

  test("a changed time is caught like changed content", () => {
    const links = chain("s1", events);
    links[1] = { ...links[1]!, at: "2020-01-01T00:00:00.000Z" };
    expect(verifyLedgerChain("s1", links)).toMatchObject({ ok: false, brokenAt: 1, type: "workspace_prepared" });
  });

  test("an event changed and its hash recomputed: broken at the next event, whose prev no longer matches", () => {
    const links = chain("s1", events);
    const edited = { type: "user_message" as const, content: "onE" };
    links[2] = { ...links[2]!, event: edited, hash: linkHash("s1", 2, links[2]!.at, canonicalJson(edited), links[2]!.prev!) };
    expect(verifyLedgerChain("s1", links)).toMatchObject({
      ok: false,
      brokenAt: 3,
      type: "user_message",
      reason: expect.stringContaining("prev is not the hash of event 2"),
    });
  });

  test("an event deleted: broken at the one after the gap, which names the missing seq", () => {
    const links = chain("s1", events);
    links.splice(2, 1);
    expect(verifyLedgerChain("s1", links)).toEqual({ ok: false, brokenAt: 3, type: "user_message", reason: "event 2 is missing before it" });
  });

  test("an event deleted and the rest renumbered: broken where the renumbered event's prev fails", () => {
    const links = chain("s1", events);
    links.splice(2, 1);
    const renumbered = links.map((l, i) => ({ ...l, seq: i }));
    expect(verifyLedgerChain("s1", renumbered)).toMatchObject({
      ok: false,
      brokenAt: 2,
      type: "user_message",
      reason: expect.stringContaining("prev is not the hash of event 1"),
    });
  });

  test("two events swapped (seqs kept in order): broken at the first of them", () => {
    const links = chain("s1", events);
    const [a, b] = [links[2]!, links[3]!];
    links[2] = { ...b, seq: 2 };
    links[3] = { ...a, seq: 3 };
    expect(verifyLedgerChain("s1", links)).toMatchObject({
      ok: false,
      brokenAt: 2,
      type: "user_message",
      reason: expect.stringContaining("prev is not the hash of event 1"),
    });
  });

  test("two rows in the wrong order: named as out of order", () => {
    const links = chain("s1", events);
    [links[2], links[3]] = [links[3]!, links[2]!];
    expect(verifyLedgerChain("s1", links)).toEqual({ ok: false, brokenAt: 3, type: "user_message", reason: "event 2 is missing before it" });
  });

  test("an event inserted with a made-up hash: broken at the inserted one", () => {
    const links = chain("s1", events);
    links.splice(2, 0, { seq: 2, at: AT, event: { type: "user_message", content: "forged" }, prev: links[1]!.hash, hash: "0".repeat(64) });
    const renumbered = links.map((l, i) => ({ ...l, seq: i }));
    expect(verifyLedgerChain("s1", renumbered)).toMatchObject({ ok: false, brokenAt: 2, reason: expect.stringContaining("does not match its hash") });
  });

  test("an event inserted by someone who knows the encoding: broken at the event after it", () => {
    const links = chain("s1", events);
    // A valid link after event 1: the chain up to it holds, the next event's prev does not.
    const forged = chain("s1", [...events.slice(0, 2), { type: "user_message", content: "forged" }])[2]!;
    links.splice(2, 0, forged);
    const renumbered = links.map((l, i) => ({ ...l, seq: i }));
    expect(verifyLedgerChain("s1", renumbered)).toMatchObject({ ok: false, brokenAt: 3, reason: expect.stringContaining("prev is not the hash of event 2") });
  });

  test("a row never chained (no hash) is reported, not skipped", () => {
    const links = chain("s1", events);
    links[1] = { ...links[1]!, hash: null, prev: null };
    expect(verifyLedgerChain("s1", links)).toEqual({ ok: false, brokenAt: 1, type: "workspace_prepared", reason: "it has no chain hash" });
  });
});
