import { request } from "node:http";
import { connect } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseAllowEntry, type AllowEntry } from "../../../src/sandbox/egress/allow-rule.js";
import { resolveDestination, type Lookup } from "../../../src/sandbox/egress/destination.js";
import { parseAuthority, startEgressProxy, type EgressProxy } from "../../../src/sandbox/egress/egress-proxy.js";

const allow = (...t: string[]): AllowEntry[] => t.map((x) => parseAllowEntry(x)!);
const fixed =
  (answers: Record<string, string[]>): Lookup =>
  async (host) => {
    if (!(host in answers)) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
    return answers[host];
  };

describe("egress destination: the resolved address decides", () => {
  const rules = (lookup: Lookup) => ({ allow: allow("registry.example", "*.cdn.example"), hostNetworks: [], lookup });

  test("a registry name resolving to a public address is allowed, to that address", async () => {
    expect(await resolveDestination("registry.example", 443, rules(fixed({ "registry.example": ["203.0.113.80"] })))).toEqual({
      ok: true,
      host: "registry.example",
      address: "203.0.113.80",
    });
  });

  test("DNS rebinding: one private answer among public ones refuses the name", async () => {
    const r = await resolveDestination("registry.example", 443, rules(fixed({ "registry.example": ["104.16.0.1", "10.0.0.5"] })));
    expect(r).toEqual({ ok: false, reason: "registry.example resolves to 10.0.0.5, which is private" });
  });

  test("an allowed wildcard name pointed at the metadata service is refused", async () => {
    const r = await resolveDestination("x.cdn.example", 80, rules(fixed({ "x.cdn.example": ["::ffff:169.254.169.254"] })));
    expect(r).toEqual({
      ok: false,
      reason: "x.cdn.example resolves to ::ffff:169.254.169.254, which is link-local (cloud metadata), as IPv6 ::ffff:169.254.169.254",
    });
  });

  test("a name that does not resolve, or a name not allowed (never looked up)", async () => {
    let asked = 0;
    const counting: Lookup = async (h) => (asked++, fixed({})(h));
    expect(await resolveDestination("registry.example", 443, rules(counting))).toEqual({ ok: false, reason: "registry.example does not resolve (ENOTFOUND)" });
    expect((await resolveDestination("other.example", 443, rules(counting))).ok).toBe(false);
    expect(asked).toBe(1);
  });
});

describe("egress proxy on its unix socket", () => {
  let dir: string;
  let proxy: EgressProxy;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pg-egress-"));
    proxy = await startEgressProxy(join(dir, "p.sock"), {
      allow: allow("registry.example"),
      hostNetworks: [],
      lookup: fixed({ "registry.example": ["127.0.0.1"] }),
    });
  });
  afterAll(async () => {
    await proxy.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const raw = (text: string) =>
    new Promise<string>((resolve) => {
      const s = connect(join(dir, "p.sock"), () => s.write(text));
      let got = "";
      s.on("data", (d) => (got += d));
      s.on("close", () => resolve(got.split("\r\n")[0] + " | " + (got.split("\r\n\r\n")[1] ?? "").trim()));
    });

  test("CONNECT to an allowed name that resolves to loopback: 403 with the reason, and it is recorded", async () => {
    expect(await raw("CONNECT registry.example:443 HTTP/1.1\r\nHost: registry.example:443\r\n\r\n")).toBe(
      "HTTP/1.1 403 Forbidden | patchgate egress proxy: registry.example resolves to 127.0.0.1, which is loopback",
    );
    expect(proxy.decisions.at(-1)).toEqual({
      method: "CONNECT",
      host: "registry.example",
      port: 443,
      allowed: false,
      reason: "registry.example resolves to 127.0.0.1, which is loopback",
    });
  });

  test("CONNECT with a malformed authority is a 400", async () => {
    expect(await raw("CONNECT registry.example HTTP/1.1\r\n\r\n")).toBe('HTTP/1.1 400 Bad Request | patchgate egress proxy: not host:port: "registry.example"');
  });

  test("plain requests must be absolute http:// URLs", async () => {
    const get = (path: string) =>
      new Promise<string>((resolve) => {
        request({ socketPath: join(dir, "p.sock"), path }, (res) => {
          let b = "";
          res.on("data", (d) => (b += d));
          res.on("end", () => resolve(`${res.statusCode} ${b.trim()}`));
        }).end();
      });
    expect(await get("/etc/passwd")).toBe("400 patchgate egress proxy: only absolute http:// URLs or CONNECT");
    expect(await get("https://registry.example/")).toBe("400 patchgate egress proxy: https: goes through CONNECT");
    expect(await get("http://evil.example/")).toBe(
      "403 patchgate egress proxy: evil.example:80 is not a package registry (add it to sandbox.allow_hosts in .github/patchgate.yml)",
    );
  });

  test("authorities: names, IPv6 in brackets, ports", () => {
    expect(parseAuthority("a.example:443")).toEqual({ host: "a.example", port: 443 });
    expect(parseAuthority("[::1]:80")).toEqual({ host: "[::1]", port: 80 });
    expect(parseAuthority("::1:80")).toBeNull();
    expect(parseAuthority("a.example")).toBeNull();
  });
});
