import { parseAllowEntry, type AllowEntry } from "../../../src/sandbox/egress/allow-rule.js";
import { resolveDestination, type DestinationRules, type Lookup } from "../../../src/sandbox/egress/destination.js";

const entries = (...t: string[]): AllowEntry[] => t.map((x) => parseAllowEntry(x)!);
const lookup: Lookup = async (host) => {
  const answers: Record<string, string[]> = {
    "svc.internal": ["10.1.2.3"],
    "other.internal": ["10.1.2.3"],
    "build-cache.internal": ["127.0.0.1"],
    "public.example": ["203.0.113.9"],
  };
  if (!(host in answers)) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
  return answers[host];
};
const hostNetworks = [{ name: "eth0", cidr: "10.1.0.0/16" }];

/** A run's rules: `allow` is what its allow list or grants name, `declared` the operator's private destinations. */
const rules = (allow: string[], declared: string[]): DestinationRules => ({
  allow: entries(...allow),
  hostNetworks,
  lookup,
  privateDestinations: entries(...declared),
});

describe("egress destination: the operator's private destinations", () => {
  test("declared and granted: the proxy connects to the private address the name resolved to", async () => {
    expect(await resolveDestination("svc.internal", 8080, rules(["svc.internal:8080"], ["svc.internal:8080"]))).toEqual({
      ok: true,
      host: "svc.internal",
      address: "10.1.2.3",
    });
    // A declaration without a port covers the web ports, as an allow entry does.
    expect((await resolveDestination("build-cache.internal", 443, rules(["build-cache.internal"], ["build-cache.internal"]))).ok).toBe(true);
  });

  test("declared but not granted: refused by the allow list, the declaration allows nothing by itself", async () => {
    const r = await resolveDestination("svc.internal", 8080, rules(["public.example"], ["svc.internal:8080"]));
    expect(r).toEqual({ ok: false, reason: expect.stringContaining("svc.internal:8080 is not a package registry") });
  });

  test("granted but not declared: the private address refuses it", async () => {
    const r = await resolveDestination("svc.internal", 8080, rules(["svc.internal:8080"], []));
    expect(r).toEqual({ ok: false, reason: "svc.internal resolves to 10.1.2.3, which is private" });
  });

  test("the declaration is matched by the name asked for and its port, never by the address", async () => {
    const declared = ["svc.internal:8080"];
    // The declared name on another port.
    expect(await resolveDestination("svc.internal", 9090, rules(["svc.internal:9090"], declared))).toEqual({
      ok: false,
      reason: "svc.internal resolves to 10.1.2.3, which is private",
    });
    // Another name resolving to the same address, on the declared port.
    expect(await resolveDestination("other.internal", 8080, rules(["other.internal:8080"], declared))).toEqual({
      ok: false,
      reason: "other.internal resolves to 10.1.2.3, which is private",
    });
    // The address itself.
    expect(await resolveDestination("10.1.2.3", 8080, rules(["10.1.2.3:8080"], declared))).toEqual({ ok: false, reason: "10.1.2.3 is private" });
  });

  test("an undeclared name on the host's own network stays refused while a declared one is reached", async () => {
    const declared = ["build-cache.internal"];
    expect((await resolveDestination("build-cache.internal", 80, rules(["build-cache.internal", "svc.internal"], declared))).ok).toBe(true);
    expect(await resolveDestination("svc.internal", 80, rules(["build-cache.internal", "svc.internal"], declared))).toEqual({
      ok: false,
      reason: "svc.internal resolves to 10.1.2.3, which is private",
    });
  });

  test("a declared name that resolves to a public address is reached like any allowed name", async () => {
    expect(await resolveDestination("public.example", 443, rules(["public.example"], ["public.example"]))).toEqual({
      ok: true,
      host: "public.example",
      address: "203.0.113.9",
    });
  });

  test("a wildcard entry handed in is never a declaration", async () => {
    const r = await resolveDestination("svc.internal", 443, { ...rules(["svc.internal"], []), privateDestinations: entries("*.internal") });
    expect(r.ok).toBe(false);
  });
});
