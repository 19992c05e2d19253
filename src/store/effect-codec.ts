import type { SessionStore } from "./types.js";
import { FatalError } from "../errors/index.js";

/**
 * How an effect's value is written and read back. Hand-written rather than zod: effects are read
 * on the idle app's delivery path (the session index, comment ids), and zod stays out of that boot
 * (test/github/app/idle-boot.integration.test.ts). `decode` throws saying what is wrong; the store accessors
 * below turn that into an EffectDecodeError naming the record.
 */
export interface Codec<T> {
  encode(value: T): string;
  decode(raw: string): T;
}

/** One effect record: where it is kept (a session id or a pseudo-session), its key, its codec. */
export interface Effect<T> {
  readonly owner: string;
  readonly key: string;
  readonly codec: Codec<T>;
}

/** A stored effect that does not decode: a damaged record, or one written in a shape this code does not know. */
export class EffectDecodeError extends FatalError {
  readonly kind = "effect_undecodable";
  constructor(
    readonly owner: string,
    readonly key: string,
    readonly raw: string,
    why: string,
  ) {
    super(`effect ${key} of ${owner} does not decode (${why}): ${JSON.stringify(raw.slice(0, 200))}`);
  }
}

type EffectStore = Pick<SessionStore, "getEffect" | "putEffect" | "claimEffect">;

function decoded<T>(e: Effect<T>, raw: string): T {
  try {
    return e.codec.decode(raw);
  } catch (why) {
    throw new EffectDecodeError(e.owner, e.key, raw, (why as Error).message);
  }
}

/** The recorded value, or null when none was recorded. */
export async function readEffect<T>(store: EffectStore, e: Effect<T>): Promise<T | null> {
  const raw = await store.getEffect(e.owner, e.key);
  return raw === null ? null : decoded(e, raw);
}

export async function writeEffect<T>(store: EffectStore, e: Effect<T>, value: T): Promise<void> {
  await store.putEffect(e.owner, e.key, e.codec.encode(value));
}

/** Records `value` unless a value is recorded already; returns the one that holds. */
export async function claimEffect<T>(store: EffectStore, e: Effect<T>, value: T): Promise<T> {
  return decoded(e, await store.claimEffect(e.owner, e.key, e.codec.encode(value)));
}

const check = <T>(test: (raw: string) => boolean, what: string, from: (raw: string) => T, to: (v: T) => string): Codec<T> => ({
  encode: to,
  decode(raw) {
    if (!test(raw)) throw new Error(`not ${what}`);
    return from(raw);
  },
});

/** A string of text as it is (a delivery id, an opaque hash). */
export const text = check<string>((raw) => raw !== "", "a non-empty string", String, String);
/** A git object name, as git prints it (sha-1 or sha-256). */
export const objectName = check<string>((raw) => /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(raw), "a git object name", String, String);
/** A count or a GitHub number (issue, comment or run id), in decimal. */
export const count = check<number>((raw) => /^(0|[1-9]\d*)$/.test(raw), "a decimal number", Number, String);
/** A record whose presence is the fact: written as "1". */
export const flag = check<true>(
  (raw) => raw === "1",
  '"1"',
  () => true,
  () => "1",
);

type Field = "string" | "number" | "boolean" | "string?" | "string|null" | "string[]";

const FIELD: Record<Field, (v: unknown) => boolean> = {
  string: (v) => typeof v === "string",
  number: (v) => typeof v === "number" && Number.isFinite(v),
  boolean: (v) => typeof v === "boolean",
  "string?": (v) => v === undefined || typeof v === "string",
  "string|null": (v) => v === null || typeof v === "string",
  "string[]": (v) => Array.isArray(v) && v.every((s) => typeof s === "string"),
};

/** A JSON value checked by `valid`, written with JSON.stringify (so the bytes are what the writer built). */
function json<T>(what: string, valid: (v: unknown) => boolean): Codec<T> {
  return {
    encode: (value) => JSON.stringify(value),
    decode(raw) {
      let v: unknown;
      try {
        v = JSON.parse(raw);
      } catch {
        throw new Error("not JSON");
      }
      if (!valid(v)) throw new Error(`not ${what}`);
      return v as T;
    },
  };
}

/** A JSON object with these fields (others are kept as they are). */
export function jsonObject<T>(what: string, fields: Record<keyof T, Field>): Codec<T> {
  const entries = Object.entries(fields) as [string, Field][];
  return json<T>(
    what,
    (v) => typeof v === "object" && v !== null && !Array.isArray(v) && entries.every(([k, f]) => FIELD[f]((v as Record<string, unknown>)[k])),
  );
}

export const stringList = json<string[]>("a list of strings", FIELD["string[]"]);
