import Foundation
import Testing

@testable import AccountDatabase
@testable import baas

/// `--json` output is as terminal-safe as text output: every scalar ``TerminalText``
/// escapes (C1 controls such as CSI `U+009B`, DEL, bidirectional formatting, the line and
/// paragraph separators) is written as a JSON `\uXXXX` escape, and the output still parses
/// to the same value. One writer (``TerminalSafeJSON``, ``Console/json(_:)``) serves every
/// JSON output; these tests run each command whose JSON can carry a server's or a file's
/// string: the user object (signup, signin, signin --ensure-doc, whoami, account update,
/// account reload), the document (doc set, doc get), the error object (a usage error, a
/// backend error) and `token verify` (valid and invalid).
@Suite("--json output escapes terminal controls", .timeLimit(.minutes(2)))
struct JSONTerminalSafetyTests {
  static let hostile = "x\u{9B}2J\u{202E}yy\u{7F}\u{2028}z\u{9D}0;t\u{2066}"

  /// `true` when the printed text holds nothing a terminal would act on (the final line
  /// feed aside).
  static func isInert(_ output: String) -> Bool {
    var text = output
    if text.hasSuffix("\n") { text.removeLast() }
    return TerminalTextTests.isInert(text)
  }

  /// Every string anywhere in a parsed JSON value.
  static func strings(_ value: Any) -> [String] {
    switch value {
    case let text as String: [text]
    case let array as [Any]: array.flatMap(strings)
    case let object as [String: Any]: object.keys.map { $0 } + object.values.flatMap(strings)
    default: []
    }
  }

  /// Checks one `--json` run: inert, one JSON object, holding `hostile` when `carries`.
  static func check(_ result: BaasResult, carries: Bool = true, _ label: String) throws {
    #expect(isInert(result.standardOutput), "\(label): \(result.standardOutput.debugDescription)")
    let object = try result.json()
    if carries {
      #expect(
        strings(object).contains { $0.contains(hostile) },
        "\(label): the value changed: \(result.standardOutput.debugDescription)")
    }
  }

  @Test func theWriterKeepsTheValueAndLeavesNothingRaw() throws {
    let value: [String: Any] = ["a": Self.hostile, "b": ["\u{1B}[2J", "ok \u{61C}\u{200E}"]]
    let encoded = try JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted])
    let escaped = TerminalSafeJSON.escaped(String(decoding: encoded, as: UTF8.self))
    #expect(TerminalTextTests.isInert(escaped.replacingOccurrences(of: "\n", with: "")))
    #expect(escaped.contains("\\u009b") && escaped.contains("\\u202e"))
    let parsed = try JSONSerialization.jsonObject(with: Data(escaped.utf8)) as? NSDictionary
    #expect(parsed == value as NSDictionary)
  }

  @Test func everyUserDocumentAndErrorOutputOfTheFake() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let account = uniqueAccount()
    let password = ["BAAS_PASSWORD": account.password]
    let signUp = try await baas.run(
      ["signup", "--email", account.email, "--json"], environment: password)
    #expect(signUp.status == 0, "\(signUp.allOutput)")
    try Self.check(signUp, carries: false, "signup")
    // A display name with controls, as a server (or an edited database) may hold.
    do {
      let store = try UserStore(
        path: baas.home.appendingPathComponent("fake.sqlite").path, passwordHashIterations: 1)
      _ = try store.locked { db in
        try db.run("UPDATE users SET display_name = ?", [.text(Self.hostile)])
      }
    }
    let runs: [(String, [String], [String: String])] = [
      ("account reload", ["account", "reload", "--json"], [:]),
      ("whoami", ["whoami", "--json"], [:]),
      ("signin", ["signin", "--email", account.email, "--json"], password),
      (
        "signin --ensure-doc", ["signin", "--email", account.email, "--ensure-doc", "--json"],
        password
      ),
      (
        "account update",
        ["account", "update", "--photo-url", "https://example.com/p.png", "--json"], [:]
      ),
      ("doc set", ["doc", "set", "note=\(Self.hostile)", "--json"], [:]),
      ("doc get", ["doc", "get", "--json"], [:]),
    ]
    for (label, arguments, environment) in runs {
      let result = try await baas.run(arguments, environment: environment)
      #expect(result.status == 0, "\(label): \(result.allOutput)")
      try Self.check(result, label)
    }
    let usage = try await baas.run(["whoami", "--x\(Self.hostile)", "--json"])
    #expect(usage.status == 2)
    try Self.check(usage, "usage error")
    let backendError = try await baas.run(
      ["doc", "get", "--user", "a\(Self.hostile)", "--json"])
    #expect(backendError.status != 0)
    try Self.check(backendError, carries: false, "backend error")
  }

  @Test func tokenVerifyValidAndInvalid() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let now = Int(Date().timeIntervalSince1970)
    func token(_ issuer: String) throws -> String {
      let claims: [String: Any] = [
        "iss": issuer, "aud": "demo-p", "sub": "u1", "user_id": "u1", "iat": now,
        "exp": now + 3600, "auth_time": now, "name": Self.hostile, "email": "a@example.com",
      ]
      let header = Data(#"{"alg":"none","typ":"JWT"}"#.utf8).base64EncodedString()
      let payload = try JSONSerialization.data(withJSONObject: claims).base64EncodedString()
      func url(_ text: String) -> String {
        text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
          .replacingOccurrences(of: "=", with: "")
      }
      return url(header) + "." + url(payload) + "."
    }
    let emulator = ["FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:1"]
    let valid = try await baas.run(
      ["token", "verify", "--project-id", "demo-p", "--json"], environment: emulator,
      input: try token("https://securetoken.google.com/demo-p"))
    #expect(valid.status == 0, "\(valid.allOutput)")
    try Self.check(valid, "token verify")
    let invalid = try await baas.run(
      ["token", "verify", "--project-id", "demo-p", "--json"], environment: emulator,
      input: try token("https://securetoken.google.com/\(Self.hostile)"))
    #expect(invalid.status == 1, "\(invalid.allOutput)")
    try Self.check(invalid, carries: false, "token verify (invalid)")
  }
}
