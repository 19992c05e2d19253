import { selectSandbox } from "../../../src/sandbox/select.js";
import type { Sandbox } from "../../../src/sandbox/types.js";

/** The real bubblewrap sandbox; a host without it fails the test loudly instead of skipping. */
export async function bubblewrap(): Promise<Sandbox> {
  const sel = await selectSandbox("bubblewrap");
  if (sel.sandbox === null) throw new Error(`bubblewrap is required for these tests: ${sel.reason}`);
  return sel.sandbox;
}
