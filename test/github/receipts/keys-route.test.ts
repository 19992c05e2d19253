import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { rmSync } from "node:fs";
import { keysHandler } from "../../../src/github/keys-route.js";
import { receiptSettings } from "../../../src/github/receipt-settings.js";
import { tempDir } from "../../helpers/git-fixture.js";

/** `GET /patchgate/keys`: the handler called as Probot calls it, with a request and a response that record. */
function call(handler: ReturnType<typeof keysHandler>, method: string, url: string) {
  const sent: { status?: number; headers?: Record<string, string>; body?: string } = {};
  const res = {
    writeHead: (status: number, headers: Record<string, string>) => Object.assign(sent, { status, headers }),
    end: (body: string) => Object.assign(sent, { body }),
  } as unknown as ServerResponse;
  const handled = handler({ method, url } as IncomingMessage, res);
  return { handled, ...sent, json: sent.body ? (JSON.parse(sent.body) as Record<string, unknown>) : null };
}

describe("the keys route", () => {
  let root: string;
  beforeAll(() => {
    root = tempDir("pg-keys-route-");
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  test("answers the public keys of the deployment, never the private one", () => {
    const receipts = receiptSettings(join(root, "data"), {});
    const r = call(keysHandler({ receipts }), "GET", "/patchgate/keys?x=1");
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      current: receipts.keys.current.keyId,
      keys: [{ keyId: receipts.keys.current.keyId, algorithm: "ed25519", publicKeyPem: receipts.keys.current.publicKeyPem, retiredAt: null }],
    });
    expect(r.body).not.toContain("PRIVATE");
    // The same key on the next start from the same data directory (another worker, a restart).
    expect(receiptSettings(join(root, "data"), {}).keys.current.keyId).toBe(receipts.keys.current.keyId);
  });

  test("other paths pass by; other methods are refused; no receipts is 404", () => {
    const receipts = receiptSettings(join(root, "data"), {});
    expect(call(keysHandler({ receipts }), "GET", "/patchgate/health").handled).toBe(false);
    expect(call(keysHandler({ receipts }), "POST", "/patchgate/keys").status).toBe(405);
    expect(call(keysHandler({ receipts: null }), "GET", "/patchgate/keys").status).toBe(404);
  });
});
