import { addressBytes, classifyAddress, type HostNetwork } from "../../../src/sandbox/egress/address-class.js";

const refused = (a: string, nets: HostNetwork[] = []) => {
  const v = classifyAddress(a, nets);
  return v.ok ? null : v.reason;
};

describe("egress address classification", () => {
  test.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["169.254.169.254", "link-local (cloud metadata)"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "shared address space (carrier-grade NAT)"],
    ["100.127.255.255", "shared address space (carrier-grade NAT)"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf:ffff::1", "link-local"],
    ["fc00::1", "private (unique local)"],
    ["fd12:3456::1", "private (unique local)"],
    ["ff02::1", "multicast"],
  ])("%s is refused: %s", (address, reason) => {
    expect(refused(address)).toBe(reason);
  });

  test.each([
    ["::ffff:127.0.0.1", "loopback, as IPv6 ::ffff:127.0.0.1"],
    ["::ffff:7f00:1", "loopback, as IPv6 ::ffff:7f00:1"],
    ["::ffff:169.254.169.254", "link-local (cloud metadata), as IPv6 ::ffff:169.254.169.254"],
    ["64:ff9b::10.0.0.1", "private, as IPv6 64:ff9b::10.0.0.1"],
    ["2002:a9fe:a9fe::1", "link-local (cloud metadata), as IPv6 2002:a9fe:a9fe::1"],
    ["::127.0.0.1", "IPv4-compatible"],
    ["[::1]", "loopback"],
  ])("an IPv4 address inside IPv6 decides: %s", (address, reason) => {
    expect(refused(address)).toBe(reason);
  });

  test.each([
    "104.16.0.1",
    "172.32.0.1",
    "172.15.255.255",
    "100.128.0.1",
    "169.255.0.1",
    "203.0.113.80",
    "2606:4700::6810:1",
    "::ffff:104.16.0.1",
    "2002:6810:0001::1",
  ])("%s is public", (address) => {
    expect(refused(address)).toBeNull();
  });

  test("the host's own networks are refused whatever their class", () => {
    const nets = [
      { name: "eth0", cidr: "192.0.2.2/24" },
      { name: "eth0", cidr: "2001:db8:1::2/64" },
    ];
    expect(refused("192.0.2.77", nets)).toBe("the host's own network (eth0 192.0.2.2/24)");
    expect(refused("2001:db8:1::99", nets)).toBe("the host's own network (eth0 2001:db8:1::2/64)");
    expect(refused("::ffff:192.0.2.2", nets)).toBe("the host's own network (eth0 192.0.2.2/24), as IPv6 ::ffff:192.0.2.2");
    expect(refused("192.0.3.1", nets)).toBeNull();
  });

  test("names and junk are not addresses", () => {
    expect(refused("registry.npmjs.org")).toBe("not an IP address");
    expect(refused("127.1")).toBe("not an IP address");
    expect(refused("0x7f.0.0.1")).toBe("not an IP address");
    expect(refused("")).toBe("not an IP address");
  });

  test("IPv6 parsing expands :: and a dotted tail", () => {
    expect(Array.from(addressBytes("1:2::7:8")!)).toEqual([0, 1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 8]);
    expect(Array.from(addressBytes("::ffff:1.2.3.4")!).slice(10)).toEqual([255, 255, 1, 2, 3, 4]);
    expect(Array.from(addressBytes("1:2:3:4:5:6:1.2.3.4")!)).toEqual([0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 1, 2, 3, 4]);
  });
});
