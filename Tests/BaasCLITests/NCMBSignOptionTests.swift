import Foundation
import Testing

/// `baas ncmb sign` refuses option values that would only give a signature no server
/// computes: a usage error (exit 2) naming the option, and no header printed.
@Suite("baas ncmb sign: values no server would sign", .timeLimit(.minutes(2)))
struct NCMBSignOptionTests {
  static let keys = [
    "NCMB_APPLICATION_KEY": "6145f91061916580c742f806bab67649d10f45920246ff459404c46f00ff3e56",
    "NCMB_CLIENT_KEY": "1343d198b510a0315db1c03f3aa0e32418b7a743f8e4b47cbff670601345cf75",
  ]
  static let stamp = ["--timestamp", "2013-12-02T02:44:35.452Z"]
  static let documented =
    "https://mbaas.api.nifcloud.com/2013-09-01/classes/TestClass?where=%7B%22testKey%22%3A%22testValue%22%7D"
  static let documentedSignature = "X-NCMB-Signature: AltGkQgXurEV7u0qMd+87ud7BKuueldoCjaMgVc9Bes="

  func sign(_ arguments: [String]) async throws -> BaasResult {
    let baas = try Baas()
    defer { baas.cleanUp() }
    return try await baas.run(["ncmb", "sign"] + arguments, environment: Self.keys)
  }

  @Test(
    "--fqdn that is not a host name",
    arguments: [
      "", "mbaas api", "mbaas.api.nifcloud.com\n", "https://mbaas.api.nifcloud.com",
      "mbaas.api.nifcloud.com/2013-09-01", "mbaas.api.nifcloud.com:443", "bücher.de",
      "MBAAS.api.nifcloud.com", "example.",
    ])
  func badFQDN(_ fqdn: String) async throws {
    let result = try await sign(["GET", Self.documented, "--fqdn", fqdn] + Self.stamp)
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains("--fqdn"), "\(result.allOutput)")
    #expect(result.standardError.contains("mbaas.api.nifcloud.com"))
    #expect(!result.standardOutput.contains("X-NCMB-Signature"))
  }

  @Test("--fqdn with a host name signs that host")
  func goodFQDN() async throws {
    let proxied = Self.documented.replacingOccurrences(
      of: "mbaas.api.nifcloud.com", with: "127.0.0.1:8080")
    let result = try await sign(["GET", proxied, "--fqdn", "mbaas.api.nifcloud.com"] + Self.stamp)
    #expect(result.status == 0, "\(result.allOutput)")
    #expect(result.standardOutput.contains(Self.documentedSignature))
  }

  /// The service refuses a signature over a lower-case escape (`%7b`) even when the
  /// client signed exactly those bytes: the path is signed and sent with upper-case hex,
  /// as the query already was, and the signed URL is shown.
  @Test("lower-case escapes in the path are signed upper-case")
  func pathEscapesUpperCased() async throws {
    let lower = try await sign(
      ["GET", "https://mbaas.api.nifcloud.com/2013-09-01/classes/Test%c3%a9"] + Self.stamp)
    let upper = try await sign(
      ["GET", "https://mbaas.api.nifcloud.com/2013-09-01/classes/Test%C3%A9"] + Self.stamp)
    #expect(lower.status == 0, "\(lower.allOutput)")
    #expect(lower.standardOutput == upper.standardOutput)
    #expect(lower.standardError.contains("/classes/Test%C3%A9"), "\(lower.allOutput)")
    let curl = try await sign(
      ["POST", "https://mbaas.api.nifcloud.com/2013-09-01/classes/Test%c3%a9", "--curl"]
        + Self.stamp)
    #expect(curl.standardOutput.contains("/classes/Test%C3%A9'"), "\(curl.allOutput)")
  }

  /// Host names are case-insensitive and a server signs its own in lower case: the
  /// URL's host is signed (and shown) lower-case.
  @Test("an upper-case host in the URL signs as the server's lower-case name")
  func upperCaseHost() async throws {
    let shouted = Self.documented.replacingOccurrences(
      of: "mbaas.api.nifcloud.com", with: "MBaaS.API.nifcloud.com")
    let result = try await sign(["GET", shouted] + Self.stamp)
    #expect(result.status == 0, "\(result.allOutput)")
    #expect(result.standardOutput.contains(Self.documentedSignature), "\(result.allOutput)")
    #expect(result.standardError.contains("https://mbaas.api.nifcloud.com/"))
  }

  @Test(
    "a malformed escape in the path is a usage error, as in the query",
    arguments: ["/2013-09-01/classes/100%", "/2013-09-01/classes/a%zz", "/2013-09-01/%7"])
  func malformedPathEscape(_ path: String) async throws {
    let result = try await sign(["GET", "https://mbaas.api.nifcloud.com" + path] + Self.stamp)
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains("path"), "\(result.allOutput)")
  }

  @Test(
    "a URL with a user name or password is a usage error; the password is never printed",
    arguments: [
      "https://bob:HUNTERPASS99@mbaas.api.nifcloud.com",
      "https://HUNTERPASS99@mbaas.api.nifcloud.com",
    ])
  func userInfo(_ base: String) async throws {
    for extra in [[], ["--curl"]] {
      let result = try await sign(["GET", base + "/2013-09-01/users"] + Self.stamp + extra)
      #expect(result.status == 2, "\(result.allOutput)")
      #expect(result.standardError.contains("user name or password"), "\(result.allOutput)")
      #expect(!result.allOutput.contains("HUNTERPASS99"))
    }
  }

  @Test("an upper-case scheme is a scheme like any other (RFC 3986 §3.1)")
  func upperCaseScheme() async throws {
    let upper = try await sign(
      ["GET", "HTTPS://MBAAS.API.NIFCLOUD.COM/2013-09-01/users"] + Self.stamp)
    let lower = try await sign(
      ["GET", "https://mbaas.api.nifcloud.com/2013-09-01/users"] + Self.stamp)
    #expect(upper.status == 0, "\(upper.allOutput)")
    #expect(upper.standardOutput == lower.standardOutput)
  }
}
