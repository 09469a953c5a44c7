import Foundation
import Testing

/// Issue 21 item 10: `baas ncmb sign` encodes the query with the adapter's encoder and
/// `--curl` prints the URL that was signed.
@Suite("baas ncmb sign: query encoding", .timeLimit(.minutes(2)))
struct NCMBSignQueryTests {
  static let environment = [
    "NCMB_APPLICATION_KEY": "6145f91061916580c742f806bab67649d10f45920246ff459404c46f00ff3e56",
    "NCMB_CLIENT_KEY": "1343d198b510a0315db1c03f3aa0e32418b7a743f8e4b47cbff670601345cf75",
  ]
  static let base = "https://mbaas.api.nifcloud.com/2013-09-01/classes/TestClass?"

  func sign(_ query: String, curl: Bool = false) async throws -> BaasResult {
    let baas = try Baas()
    defer { baas.cleanUp() }
    return try await baas.run(
      ["ncmb", "sign", "GET", Self.base + query, "--timestamp", "2013-12-02T02:44:35.452Z"]
        + (curl ? ["--curl"] : []), environment: Self.environment)
  }

  @Test(
    "the raw, pre-encoded and lower-case-hex forms of the documented query give the documented signature",
    arguments: [
      #"where={"testKey":"testValue"}"#,
      "where=%7b%22testKey%22%3a%22testValue%22%7d",
      "where=%7B%22testKey%22%3A%22testValue%22%7D",
    ])
  func documented(_ query: String) async throws {
    let result = try await sign(query, curl: true)
    #expect(result.status == 0, "\(result.allOutput)")
    #expect(
      result.standardOutput.contains(
        "X-NCMB-Signature: AltGkQgXurEV7u0qMd+87ud7BKuueldoCjaMgVc9Bes="))
    #expect(
      result.standardOutput.contains(
        "'\(Self.base)where=%7B%22testKey%22%3A%22testValue%22%7D'"))
  }

  @Test(
    "--curl prints the signed URL: + is %2B, & inside a JSON value is %26",
    arguments: [
      (#"where={"n":"1+2"}"#, "where=%7B%22n%22%3A%221%2B2%22%7D"),
      (#"where={"n":"a&b"}&limit=2"#, "where=%7B%22n%22%3A%22a%26b%22%7D&limit=2"),
    ])
  func siblings(_ query: String, _ signed: String) async throws {
    let result = try await sign(query, curl: true)
    #expect(result.status == 0, "\(result.allOutput)")
    #expect(result.standardOutput.contains("'\(Self.base)\(signed)'"), "\(result.standardOutput)")
  }

  @Test("a malformed escape is a usage error naming the query")
  func malformed() async throws {
    let result = try await sign("q=100%")
    #expect(result.status == 2)
    #expect(result.standardError.contains("query"))
  }
}
