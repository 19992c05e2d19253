import { IllegalTransitionError } from "./errors.js";
import type { SessionEvent } from "./events.js";
import { executableRecordsAfter, executableWritesAfter, forgetWrites } from "./executable-config-writes.js";
import { afterDelete, afterMove, afterRead, afterWrite } from "./file-contexts.js";
import { requireLive } from "./phase-guards.js";
import { DELETED_CONTENT, publishableAfter } from "./publishable.js";
import type { SessionState } from "./state.js";

type FileChangeEvent = Extract<SessionEvent, { type: "file_read" | "file_written" | "file_deleted" | "file_moved" | "command_changed" }>;

/**
 * What reading and changing files does to the session: the edit context of each path (what was read
 * and when), the paths publication may take, and the hash each written path must still have when it is
 * published (a deleted path must still be absent).
 */
export function reduceFileChange(s: SessionState, next: SessionState, e: FileChangeEvent): SessionState {
  switch (e.type) {
    case "file_read":
      requireLive(s, e);
      return { ...next, fileContexts: { ...s.fileContexts, [e.path]: afterRead(s.fileContexts, e, s.step) } };
    case "file_written":
      requireLive(s, e);
      return {
        ...next,
        fileContexts: { ...s.fileContexts, [e.path]: afterWrite(e, s.step) },
        publishablePaths: publishableAfter(s.publishablePaths, [e]),
        writtenHashes: { ...s.writtenHashes, [e.path]: e.hash },
        executableConfigWrites: executableWritesAfter(s, e),
      };
    case "file_deleted": {
      requireLive(s, e);
      const recorded = { [e.path]: DELETED_CONTENT };
      return {
        ...next,
        fileContexts: afterDelete(s.fileContexts, e.path),
        publishablePaths: publishableAfter(s.publishablePaths, [e]),
        writtenHashes: { ...s.writtenHashes, ...recorded },
        executableConfigWrites: executableRecordsAfter(s, e.type, recorded, e.executableConfig === true),
      };
    }
    case "file_moved": {
      requireLive(s, e);
      if (e.from === e.to) throw new IllegalTransitionError(e.type, s.phase, `${e.from} cannot be moved onto itself`);
      const recorded = { [e.from]: DELETED_CONTENT, [e.to]: e.hash };
      return {
        ...next,
        fileContexts: afterMove(s.fileContexts, e),
        publishablePaths: publishableAfter(s.publishablePaths, [e]),
        writtenHashes: { ...s.writtenHashes, ...recorded },
        executableConfigWrites: executableRecordsAfter(s, e.type, recorded, e.executableConfig === true),
      };
    }
    case "command_changed": {
      requireLive(s, e);
      return { ...next, publishablePaths: publishableAfter(s.publishablePaths, [e]), ...forgetWrites(s, e.paths) };
    }
  }
}
