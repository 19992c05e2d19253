import { IllegalTransitionError } from "../../src/session/errors.js";
import type { SessionEvent } from "../../src/session/events.js";
import { fold } from "../../src/session/reducer.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ledger } from "../../src/store/ledger.js";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";
import { created, prepared, toExecuting } from "../helpers/session-events.js";

const rust = { name: "rust", version: "1.95.0", path: "/opt/rust/bin", binds: ["/opt/rust"], how: "rustup default" };
const resolved: SessionEvent = { type: "toolchains_resolved", toolchains: [rust], unmet: [] };
const blocked: SessionEvent = { type: "session_blocked", reason: "toolchain_missing", message: "install rust 1.80.0" };

describe("the blocked ending and the recorded toolchains", () => {
  test("toolchains_resolved records the toolchains without moving the phase; null before", () => {
    expect(fold([created(), prepared]).toolchains).toBeNull();
    const s = fold([created(), prepared, resolved]);
    expect(s).toMatchObject({ phase: "planning", toolchains: [rust] });
  });

  test("session_blocked ends the session from planning or executing, with its reason; the store's phase agrees", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pg-blocked-"));
    const store = SqliteSessionStore.open(join(dir, "s.sqlite"));
    try {
      for (const before of [[created(), prepared], [...toExecuting()]]) {
        const events = [...before, resolved, blocked];
        expect(fold(events)).toMatchObject({ phase: "blocked", blocked: { reason: "toolchain_missing", message: "install rust 1.80.0" } });
        const [first, ...rest] = events as [Extract<SessionEvent, { type: "session_created" }>, ...SessionEvent[]];
        const sessionId = `s${before.length}`;
        const ledger = await Ledger.create(store, { ...first, sessionId });
        await ledger.append(...rest);
        expect((await store.list()).find((x) => x.id === sessionId)?.phase).toBe("blocked");
      }
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("nothing follows a blocked session: it is terminal like failed and cancelled", () => {
    const ended = [created(), prepared, blocked];
    expect(() => fold([...ended, { type: "resumed", trigger: "x" }])).toThrow(IllegalTransitionError);
    expect(() => fold([...ended, blocked])).toThrow(IllegalTransitionError);
    expect(() => fold([...ended, resolved])).toThrow(IllegalTransitionError);
  });
});
