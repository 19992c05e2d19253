import { checkEditContext, contentHash } from "../../src/policy/edit-context.js";

const h1 = contentHash("one\n");
const h2 = contentHash("two\n");

test("contentHash is sha256 hex and agrees for string and Buffer", () => {
  expect(contentHash("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  expect(contentHash(Buffer.from("abc"))).toBe(contentHash("abc"));
});

test("new file (no current hash) may be written without a read", () => {
  expect(checkEditContext({}, "src/new.ts", null)).toBeNull();
});

test("file read at its current content may be written", () => {
  expect(checkEditContext({ "src/a.ts": { hash: h1, step: 3 } }, "src/a.ts", h1)).toBeNull();
});

test("existing file never read is refused with edit_without_read (never_read)", () => {
  const err = checkEditContext({ "src/b.ts": { hash: h1, step: 1 } }, "src/a.ts", h1);
  expect(err?.code).toBe("edit_without_read");
  expect(err?.message).toMatch(/not read it/);
  expect(err?.message).toMatch(/read_file/);
  expect(err?.details).toEqual({ path: "src/a.ts", reason: "never_read" });
});

test("file changed since it was read is refused with edit_without_read (changed_since_read)", () => {
  const err = checkEditContext({ "src/a.ts": { hash: h1, step: 4 } }, "src/a.ts", h2);
  expect(err?.code).toBe("edit_without_read");
  expect(err?.message).toMatch(/changed since you read it/);
  expect(err?.details).toEqual({ path: "src/a.ts", reason: "changed_since_read", readAtStep: 4 });
});

test("a path named like an Object.prototype member is not mistaken for a read file", () => {
  expect(checkEditContext({}, "constructor", h1)?.code).toBe("edit_without_read");
});
