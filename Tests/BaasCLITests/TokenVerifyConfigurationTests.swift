import Foundation
import Testing

/// A `baas token verify` setting no verification could use, and the name the usage error
/// must give.
struct TokenVerifySettingCase: Sendable, CustomTestStringConvertible {
  var arguments: [String]
  var environment: [String: String] = [:]
  var named: String
  var testDescription: String {
    (arguments + environment.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
  }

  static func url(_ url: String) -> TokenVerifySettingCase {
    TokenVerifySettingCase(
      arguments: ["--project-id", "demo-p", "--certificates-url", url],
      named: "--certificates-url")
  }

  static let all: [TokenVerifySettingCase] =
    [
      "http://u:p@127.0.0.1:1/c", "http://u@127.0.0.1:1/c", "http://127.0.0.1:1/c?alt=json",
      "http://127.0.0.1:1/c#k1", "ftp://127.0.0.1:1/c", "c.json",
    ].map(url) + [
      TokenVerifySettingCase(arguments: ["--project-id", ""], named: "--project-id"),
      TokenVerifySettingCase(arguments: ["--project-id", "Demo-P"], named: "--project-id"),
      TokenVerifySettingCase(arguments: ["--project-id", "demo p"], named: "--project-id"),
      TokenVerifySettingCase(arguments: ["--project-id", "p"], named: "--project-id"),
      TokenVerifySettingCase(
        arguments: ["--project-id", "https://securetoken.google.com/demo-p"],
        named: "--project-id"),
      TokenVerifySettingCase(
        arguments: [], environment: ["FIREBASE_PROJECT_ID": "demo/p"],
        named: "FIREBASE_PROJECT_ID"),
      TokenVerifySettingCase(
        arguments: ["--project-id", "demo-p"],
        environment: ["FIREBASE_AUTH_EMULATOR_HOST": "u:p@127.0.0.1:1"],
        named: "FIREBASE_AUTH_EMULATOR_HOST"),
      TokenVerifySettingCase(
        arguments: ["--project-id", "demo-p"],
        environment: ["FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:1?x"],
        named: "FIREBASE_AUTH_EMULATOR_HOST"),
    ]
    // A public, link-local or unspecified emulator host: its unsigned tokens would be
    // trusted and its certificates fetched in plain HTTP (the rule of every emulator host
    // setting), also when --certificates-url points elsewhere.
    + [
      "203.0.113.5:9099", "auth.example.com:9099", "169.254.169.254:80", "[fe80::1]:9099",
      "0.0.0.0:9099", "[::]:9099",
    ].flatMap { host in
      [
        TokenVerifySettingCase(
          arguments: ["--project-id", "demo-p"],
          environment: ["FIREBASE_AUTH_EMULATOR_HOST": host],
          named: "FIREBASE_AUTH_EMULATOR_HOST"),
        TokenVerifySettingCase(
          arguments: [
            "--project-id", "demo-p", "--certificates-url",
            "https://www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com",
          ],
          environment: ["FIREBASE_AUTH_EMULATOR_HOST": host],
          named: "FIREBASE_AUTH_EMULATOR_HOST"),
      ]
    }
}

@Suite("baas token verify refuses unusable settings up front", .timeLimit(.minutes(1)))
struct TokenVerifyConfigurationTests {
  /// Exit 2 with a message naming the option or variable, for a token that would
  /// otherwise be checked (unsigned, emulator mode or not): not exit 1 after a failed
  /// fetch or a wrong-issuer verdict. The user info never shows up in the message.
  @Test(arguments: TokenVerifySettingCase.all)
  func refusedAsUsage(_ row: TokenVerifySettingCase) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let header = Data(#"{"alg":"none","typ":"JWT"}"#.utf8).base64EncodedString()
    let result = try await baas.run(
      ["token", "verify"] + row.arguments, environment: row.environment,
      input: header + ".e30.")
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains(row.named), "\(result.allOutput)")
    #expect(!result.allOutput.contains("u:p@"))
  }
}
