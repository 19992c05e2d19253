import { allowEntryFromUrl, hostAllowed, parseAllowEntry, type AllowEntry } from "../../../src/sandbox/egress/allow-rule.js";

const entries = (...texts: string[]): AllowEntry[] => texts.map((t) => parseAllowEntry(t)!);

describe("egress allow rule", () => {
  test("an exact name allows the web ports only", () => {
    const allow = entries("registry.npmjs.org");
    expect(hostAllowed("registry.npmjs.org", 443, allow)).toEqual({ ok: true, host: "registry.npmjs.org" });
    expect(hostAllowed("REGISTRY.npmjs.org.", 80, allow)).toEqual({ ok: true, host: "registry.npmjs.org" });
    expect(hostAllowed("registry.npmjs.org", 22, allow).ok).toBe(false);
    expect(hostAllowed("evil-registry.npmjs.org", 443, allow).ok).toBe(false);
    expect(hostAllowed("registry.npmjs.org.evil.com", 443, allow).ok).toBe(false);
  });

  test("a refusal names the host and where to allow it", () => {
    expect(hostAllowed("example.com", 443, entries("registry.npmjs.org"))).toEqual({
      ok: false,
      reason: "example.com:443 is not a package registry (add it to sandbox.allow_hosts in .github/patchgate.yml)",
    });
  });

  test("a wildcard allows subdomains, not the apex", () => {
    const allow = entries("*.example.org");
    expect(hostAllowed("a.b.example.org", 443, allow).ok).toBe(true);
    expect(hostAllowed("example.org", 443, allow).ok).toBe(false);
    expect(hostAllowed("badexample.org", 443, allow).ok).toBe(false);
  });

  test("an explicit port allows that port only", () => {
    const allow = entries("npm.example.org:8443", "[2001:db8::1]:8080");
    expect(hostAllowed("npm.example.org", 8443, allow).ok).toBe(true);
    expect(hostAllowed("npm.example.org", 443, allow).ok).toBe(false);
    expect(hostAllowed("[2001:db8::1]", 8080, allow).ok).toBe(true);
  });

  test.each(["", "a b", "http://x.org", "x.org:0", "x.org:65536", "x.org:08", "*.1.2.3.4", "exa_mple.org", "-x.org", "x..org", "*", "ünicode.org"])(
    "malformed entry %j",
    (text) => {
      expect(parseAllowEntry(text)).toBeNull();
    },
  );

  test("names the client sends that are no host name are refused", () => {
    expect(hostAllowed("x.org\r\nHost: y", 443, entries("x.org")).ok).toBe(false);
    expect(hostAllowed("x.org", 70000, entries("x.org")).ok).toBe(false);
  });

  test("a registry URL gives its host and port, never its credentials", () => {
    expect(allowEntryFromUrl("https://user:s3cret@npm.corp.example:8443/repo/")).toEqual({ host: "npm.corp.example", wildcard: false, port: 8443 });
    expect(allowEntryFromUrl("sparse+https://index.crates.io/")).toEqual({ host: "index.crates.io", wildcard: false, port: null });
    expect(allowEntryFromUrl("file:///srv/registry")).toBeNull();
    expect(allowEntryFromUrl("not a url")).toBeNull();
  });
});
