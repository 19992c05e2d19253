/**
 * A worker's half of opening a session's workspace, in its own process so a test can kill it with
 * -9 mid-clone: opens the session from the SQLite file at REOPEN_STORE, brings its workspace up in
 * REOPEN_DIR from REOPEN_SOURCE (at REOPEN_REF when set), and prints `opened` when it has.
 */
import { reopenWorkspace } from "../../src/agent/session-service.js";
import { Ledger } from "../../src/store/ledger.js";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";

const env = (name: string): string => {
  const v = process.env[name];
  if (v === undefined) throw new Error(`${name} is not set`);
  return v;
};
const store = SqliteSessionStore.open(env("REOPEN_STORE"));
const ledger = await Ledger.open(store, env("REOPEN_SESSION"));
const ref = process.env.REOPEN_REF;
await reopenWorkspace(ledger, { source: env("REOPEN_SOURCE"), dir: env("REOPEN_DIR"), ...(ref ? { ref } : {}) });
await store.close();
console.log("opened");
