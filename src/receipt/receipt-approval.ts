import type { StoredEvent } from "../session/events.js";
import type { Approver } from "../session/types.js";
import type { ReceiptApproval } from "./predicate-schema.js";

/** A decision as a receipt states it: who, how, when, and the ledger event that recorded it. */
export function approval(by: Approver, e: StoredEvent): ReceiptApproval {
  return {
    login: by.login,
    via: by.via,
    ...(by.source === undefined ? {} : { source: by.source }),
    ...(by.how === undefined ? {} : { how: by.how }),
    at: e.at,
    seq: e.seq,
  };
}
