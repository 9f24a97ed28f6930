import { describe, expect, test } from "bun:test";
import { assertPublicHost, assertPublicUrl, checkUrlSyntax, isNonPublicAddress, parseIp, UnsafeUrlError } from "./ssrf";

const blocked = (host: string) => isNonPublicAddress(parseIp(host)!);

describe("SSRF guard", () => {
  test.each([
    "127.0.0.1",
    "127.1",
    "2130706433",
    "0x7f000001",
    "0x7f.0.0.1",
    "0177.0.0.1",
    "017700000001",
    "0.0.0.0",
    "0",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "224.0.0.1",
    "255.255.255.255",
    "::1",
    "::",
    "[::1]",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "fe80::1",
    "fe80::1%eth0",
    "fc00::1",
    "fd12:3456::1",
    "64:ff9b::a9fe:a9fe",
    "2002:7f00:1::",
    "ff02::1",
    "::127.0.0.1",
  ])("refuses %s", (host) => {
    expect(parseIp(host)).not.toBeNull();
    expect(blocked(host)).toBe(true);
  });

  test.each([
    "8.8.8.8",
    "1.1.1.1",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700::1111",
    "::ffff:8.8.8.8",
    "2002:0808:0808::",
  ])("accepts public %s", (host) => {
    expect(blocked(host)).toBe(false);
  });

  test("URL spellings that the URL parser or we normalize are refused", () => {
    for (const url of [
      "https://2130706433/",
      "https://0x7f.1/",
      "https://[::ffff:127.0.0.1]/",
      "https://[fe80::1]/",
      "https://localhost/",
      "https://printer.local/",
      "https://intranet/",
      "https://169.254.169.254/latest/meta-data",
    ]) {
      expect(() => checkUrlSyntax(url, []), url).toThrow(UnsafeUrlError);
    }
  });

  test("plain http and credentials are refused; operator-allowed hosts may use http", () => {
    expect(() => checkUrlSyntax("http://example.com/hook", [])).toThrow("https");
    expect(() => checkUrlSyntax("https://user:pw@example.com/hook", [])).toThrow("credentials");
    expect(() => checkUrlSyntax("ftp://example.com/", [])).toThrow();
    expect(() => checkUrlSyntax("not a url", [])).toThrow();
    expect(checkUrlSyntax("http://127.0.0.1:8080/hook", ["127.0.0.1"]).allowedByOperator).toBe(true);
    expect(checkUrlSyntax("http://10.0.5.7/hook", ["10.0.0.0/16"]).allowedByOperator).toBe(true);
    expect(() => checkUrlSyntax("http://10.1.5.7/hook", ["10.0.0.0/16"])).toThrow();
    expect(checkUrlSyntax("http://nas.home.arpa/hook", ["nas.home.arpa"]).allowedByOperator).toBe(true);
  });

  test("a name resolving to a private address is refused after DNS; all addresses must pass", async () => {
    const dns = (map: Record<string, string[]>) => async (host: string) => map[host] ?? [];
    await expect(
      assertPublicUrl("https://evil.example.com/", [], dns({ "evil.example.com": ["10.0.0.8"] })),
    ).rejects.toThrow("private");
    await expect(
      assertPublicUrl("https://mixed.example.com/", [], dns({ "mixed.example.com": ["93.184.216.34", "::1"] })),
    ).rejects.toThrow("private");
    await expect(assertPublicUrl("https://gone.example.com/", [], dns({}))).rejects.toThrow("does not resolve");
    const ok = await assertPublicUrl("https://good.example.com/", [], dns({ "good.example.com": ["93.184.216.34"] }));
    expect(ok.addresses).toEqual(["93.184.216.34"]);
    const allowed = await assertPublicUrl(
      "https://hooks.lan.example/",
      ["192.168.0.0/16"],
      dns({ "hooks.lan.example": ["192.168.4.4"] }),
    );
    expect(allowed.addresses).toEqual(["192.168.4.4"]);
  });

  test("the system resolver is used by default (localhost resolves to loopback)", async () => {
    await expect(assertPublicUrl("https://localhost./", [])).rejects.toThrow(UnsafeUrlError);
  });

  test("bare hosts (mail servers): literals in every spelling, local names, DNS answers; operator-allowed pass", async () => {
    const dns = (map: Record<string, string[]>) => async (host: string) => map[host] ?? [];
    for (const host of [
      "127.0.0.1",
      "127.1",
      "0x7f000001",
      "[::1]",
      "::ffff:10.0.0.1",
      "169.254.169.254",
      "localhost",
      "db",
      "imap.internal",
    ]) {
      await expect(assertPublicHost(host, [], dns({}))).rejects.toThrow(UnsafeUrlError);
    }
    for (const host of ["", "imap.example.com/x", "user@imap.example.com", "a b.example.com"]) {
      await expect(assertPublicHost(host, [], dns({}))).rejects.toThrow(UnsafeUrlError);
    }
    await expect(assertPublicHost("imap.example.com", [], dns({ "imap.example.com": ["10.1.2.3"] }))).rejects.toThrow(
      UnsafeUrlError,
    );
    await expect(assertPublicHost("gone.example.com", [], dns({}))).rejects.toThrow("does not resolve");
    expect(await assertPublicHost("imap.example.com.", [], dns({ "imap.example.com": ["93.184.216.34"] }))).toEqual({
      host: "imap.example.com",
      addresses: ["93.184.216.34"],
    });
    expect((await assertPublicHost("127.0.0.1", ["127.0.0.1"], dns({}))).addresses).toEqual(["127.0.0.1"]);
    expect((await assertPublicHost("mail.lan", ["10.0.0.0/8"], dns({ "mail.lan": ["10.9.9.9"] }))).addresses).toEqual([
      "10.9.9.9",
    ]);
  });
});
