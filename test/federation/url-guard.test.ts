import { describe, expect, it } from "vitest";
import { AppError } from "../../src/errors.ts";
import { checkOutboundUrl } from "../../src/federation/url-guard.ts";

const strict = { allowLocal: false };
const selfHosted = { allowLocal: true };

function refusal(url: string, policy = strict): string | null {
  try {
    checkOutboundUrl(url, policy);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("unsafe_url");
    return (error as AppError).message;
  }
}

// Every spelling an attacker might use to reach the host, its network or a metadata service.
const HOSTILE: [string, string][] = [
  ["http://example.com/mcp", "plain http"],
  ["ftp://example.com/", "another scheme"],
  ["file:///etc/passwd", "a file"],
  ["javascript:alert(1)", "not a network URL"],
  ["https://user:pass@example.com/", "credentials"],
  ["https://token@example.com/", "a username alone"],
  ["not a url", "unparseable"],
  ["https://localhost/", "localhost"],
  ["https://LOCALHOST./", "localhost, upper case with a trailing dot"],
  ["https://api.localhost/", "*.localhost"],
  ["https://printer.local/", "*.local"],
  ["https://metadata.google.internal/computeMetadata/v1/", "GCP metadata name"],
  ["https://db.svc.cluster.local/", "a cluster name"],
  ["https://metadata/", "a single label"],
  ["https://127.0.0.1/", "loopback"],
  ["https://127.1.2.3/", "loopback /8"],
  ["https://2130706433/", "decimal loopback"],
  ["https://0x7f000001/", "hex loopback"],
  ["https://0x7f.0.0.1/", "hex octet"],
  ["https://0177.0.0.1/", "octal loopback"],
  ["https://017700000001/", "octal whole number"],
  ["https://127.0.0.1./", "trailing dot"],
  ["https://0.0.0.0/", "unspecified"],
  ["https://0/", "zero"],
  ["https://10.0.0.1/", "private 10/8"],
  ["https://172.16.5.4/", "private 172.16/12"],
  ["https://172.31.255.255/", "private 172.16/12 upper end"],
  ["https://192.168.1.1/", "private 192.168/16"],
  ["https://100.64.0.1/", "CGNAT"],
  ["https://100.127.255.254/", "CGNAT upper end"],
  ["https://169.254.169.254/latest/meta-data/", "AWS metadata"],
  ["https://2852039166/", "decimal metadata"],
  ["https://0xa9fea9fe/", "hex metadata"],
  ["https://0251.0376.0251.0376/", "octal metadata"],
  ["https://224.0.0.1/", "multicast"],
  ["https://255.255.255.255/", "broadcast"],
  ["https://198.18.0.1/", "benchmarking"],
  ["https://[::1]/", "IPv6 loopback"],
  ["https://[0:0:0:0:0:0:0:1]/", "IPv6 loopback, long form"],
  ["https://[::]/", "IPv6 unspecified"],
  ["https://[::ffff:127.0.0.1]/", "IPv4-mapped loopback"],
  ["https://[::ffff:7f00:1]/", "IPv4-mapped loopback, hex"],
  ["https://[::ffff:169.254.169.254]/", "IPv4-mapped metadata"],
  ["https://[::ffff:10.0.0.1]/", "IPv4-mapped private"],
  ["https://[::127.0.0.1]/", "IPv4-compatible loopback"],
  ["https://[64:ff9b::a9fe:a9fe]/", "NAT64 metadata"],
  ["https://[2002:7f00:1::]/", "6to4 loopback"],
  ["https://[fc00::1]/", "unique local"],
  ["https://[fd12:3456::1]/", "unique local fd"],
  ["https://[fe80::1]/", "link-local"],
  ["https://[fe80::1%25eth0]/", "link-local with a zone"],
  ["https://[fec0::1]/", "site-local"],
  ["https://[ff02::1]/", "multicast"],
  ["https://[fd00:ec2::254]/", "AWS IPv6 metadata"],
];

describe("outbound URL checks", () => {
  it.each(HOSTILE)("refuses %s (%s)", (url) => {
    expect(refusal(url)).not.toBeNull();
  });

  it.each([
    "https://mcp.example.com/mcp",
    "https://93.184.215.14/mcp",
    "https://[2606:4700::6810:84e5]/mcp",
    "https://mcp.example.com:8443/sse?x=1",
    "https://xn--fiqs8s.example.com/",
  ])("accepts the public URL %s", (url) => {
    expect(refusal(url)).toBeNull();
  });

  it("lets a self-hoster reach http://localhost and 127.0.0.1 and nothing more", () => {
    expect(refusal("http://localhost:3001/mcp", selfHosted)).toBeNull();
    expect(refusal("http://127.0.0.1:3001/mcp", selfHosted)).toBeNull();
    expect(refusal("https://localhost/mcp", selfHosted)).toBeNull();
    expect(refusal("http://2130706433:3001/mcp", selfHosted)).toBeNull();
    for (const url of [
      "http://example.com/",
      "http://10.0.0.1/",
      "https://169.254.169.254/",
      "http://[::1]/",
      "http://printer.local/",
      "http://user:pw@localhost/",
      "http://127.0.0.2/",
    ]) {
      expect(refusal(url, selfHosted), url).not.toBeNull();
    }
  });

  it("says why in the message", () => {
    expect(refusal("https://169.254.169.254/")).toContain("link-local");
    expect(refusal("https://a:b@example.com/")).toContain("credentials");
  });
});
