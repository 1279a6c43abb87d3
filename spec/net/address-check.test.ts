// Which addresses web_fetch may connect to: the resolved IP, in every form it can be written.
import { describe, expect, test } from "bun:test";
import { hostAllowed, parseIPv4, parseIPv6, refusedAddress } from "../../lib/net/address-check.ts";

describe("refusedAddress", () => {
  test.each([
    ["127.0.0.1", /loopback/],
    ["127.0.0.2", /loopback/],
    ["127.255.255.254", /loopback/],
    ["0.0.0.0", /this network/],
    ["10.0.0.1", /10\/8/],
    ["172.16.0.1", /172\.16\/12/],
    ["172.31.255.255", /172\.16\/12/],
    ["192.168.1.1", /192\.168/],
    ["169.254.169.254", /link-local/],
    ["100.64.0.1", /carrier-grade/],
    ["100.127.255.255", /carrier-grade/],
    ["224.0.0.1", /multicast/],
    ["255.255.255.255", /reserved/],
    ["198.18.0.1", /benchmarking/],
    ["::1", /loopback/],
    ["::", /unspecified/],
    ["0:0:0:0:0:0:0:1", /loopback/],
    ["fc00::1", /unique-local/],
    ["fd12:3456::1", /unique-local/],
    ["fe80::1", /link-local/],
    ["fe80::1%eth0", /link-local/],
    ["febf::1", /link-local/],
    ["ff02::1", /multicast/],
    ["::ffff:127.0.0.1", /IPv4-mapped.*loopback/],
    ["::ffff:7f00:1", /IPv4-mapped.*loopback/],
    ["::FFFF:10.1.2.3", /IPv4-mapped.*10\/8/],
    ["0:0:0:0:0:ffff:a9fe:a9fe", /IPv4-mapped.*link-local/],
    ["::127.0.0.1", /IPv4-compatible.*loopback/],
    ["::ffff:0:127.0.0.1", /translated.*loopback/],
    ["64:ff9b::a00:1", /NAT64.*10\/8/],
    ["2002:7f00:1::", /6to4.*loopback/],
    ["[::1]", /loopback/],
    ["2001:db8::1", /documentation/],
    ["not-an-ip", /not an IP/],
    ["1.2.3.4.5", /not an IP/],
    ["1::2::3", /not an IP/],
  ])("%s is refused", (address, why) => {
    expect(refusedAddress(address)).toMatch(why);
  });

  test.each(["8.8.8.8", "1.1.1.1", "93.184.216.34", "172.32.0.1", "100.128.0.1", "192.169.0.1", "2606:4700:4700::1111", "2a00:1450:4001:82b::200e", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::"])(
    "%s is public",
    (address) => {
      expect(refusedAddress(address)).toBeUndefined();
    },
  );

  test("the short and hex forms of IPv4 are the same address", () => {
    expect(parseIPv4("127.1")).toBe(parseIPv4("127.0.0.1"));
    expect(parseIPv4("0x7f000001")).toBe(parseIPv4("127.0.0.1"));
    expect(parseIPv4("0177.0.0.1")).toBe(parseIPv4("127.0.0.1"));
    expect(parseIPv4("2130706433")).toBe(parseIPv4("127.0.0.1"));
    expect(refusedAddress("0x7f.1")).toMatch(/loopback/);
    expect(parseIPv4("256.0.0.1")).toBeUndefined();
    expect(parseIPv4("1.2.3.256")).toBeUndefined();
  });

  test("IPv6 groups: the :: gap is filled, the embedded quad becomes two groups", () => {
    expect(parseIPv6("::ffff:1.2.3.4")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(parseIPv6("1:2:3:4:5:6:7:8")).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIPv6("1:2:3:4:5:6:7")).toBeUndefined();
    expect(parseIPv6("1:2:3:4:5:6:7:8:9")).toBeUndefined();
    expect(parseIPv6("12345::")).toBeUndefined();
  });
});

describe("hostAllowed", () => {
  test("a host alone allows every port; host:port only that port (default ports from the scheme)", () => {
    expect(hostAllowed(new URL("http://localhost:8123/x"), ["localhost"])).toBe(true);
    expect(hostAllowed(new URL("http://localhost:8123/x"), ["localhost:8123"])).toBe(true);
    expect(hostAllowed(new URL("http://localhost:8124/x"), ["localhost:8123"])).toBe(false);
    expect(hostAllowed(new URL("http://LocalHost/x"), ["localhost:80"])).toBe(true);
    expect(hostAllowed(new URL("https://intranet.example/x"), ["intranet.example:443"])).toBe(true);
    expect(hostAllowed(new URL("http://[::1]:9000/"), ["[::1]:9000"])).toBe(true);
    expect(hostAllowed(new URL("http://127.0.0.1:9000/"), ["localhost"])).toBe(false);
    expect(hostAllowed(new URL("http://evil.localhost/"), ["localhost"])).toBe(false);
  });
});
