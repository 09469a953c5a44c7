import Foundation
import Testing

/// Settings for the firebase backend pointed at a port where nothing listens: a command
/// that sent a request would fail with `network` (exit 1), so exit 2 proves the bad input
/// was refused before any request.
private let unreachableFirebase = [
  "BAAS_BACKEND": "firebase", "FIREBASE_API_KEY": "test-api-key",
  "FIREBASE_PROJECT_ID": "demo-project", "FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:9",
  "FIRESTORE_EMULATOR_HOST": "127.0.0.1:9",
]

@Suite("baas account and doc: arguments checked before any request", .timeLimit(.minutes(10)))
struct AccountManagementCommandTests {
  @Test(
    "bad input is a usage error naming the option or the field, before any request",
    arguments: [
      (["account", "update"], "--display-name"),
      (["account", "update", "--photo-url", "ftp://example.com/a.png"], "--photo-url"),
      (["account", "update", "--photo-url", "/a.png"], "--photo-url"),
      (["account", "update", "--display-name", "Ada", "--photo-url", "https://"], "--photo-url"),
      // Attack round 6, L2: the library's rule refused these later, with another exit status.
      (["account", "update", "--photo-url", "https://example.com/a b"], "--photo-url"),
      (["account", "update", "--photo-url", "http://u:p@example.com/x.png"], "--photo-url"),
      (["account", "update", "--photo-url", "https://example.com:99999/x"], "--photo-url"),
      (["account", "update", "--email", ""], "--email"),
      (["account", "verify-email"], "--code"), (["account", "verify-email", "--code="], "--code"),
      (["account", "reset-password"], "--code"), (["account", "link"], "--email"),
      (["account", "reauth", "--email", "a@example.com", "--username", "ada"], "--username"),
      (["doc", "set"], "FIELD=VALUE"), (["doc", "set", "=x"], "argument 1"),
      (["doc", "set", "a=1", "b"], "argument 2"), (["doc", "set", "a=1", "a=2"], "field a"),
      (["doc", "set", "a={\"k\":1,\"k\":2}"], "field a"), (["doc", "set", "n=1e999"], "field n"),
      (["doc", "get", "--user", ""], "--user"), (["doc", "delete", "--user="], "--user"),
    ])
  func badInput(arguments: [String], named: String) async throws {
    var baas = try Baas()
    defer { baas.cleanUp() }
    baas.environment = unreachableFirebase
    let human = try await baas.run(arguments)
    #expect(human.status == 2, "\(arguments): \(human.allOutput)")
    #expect(human.standardError.contains(named), "\(arguments): \(human.standardError)")
    #expect(human.standardOutput.isEmpty)
    #expect(!human.allOutput.contains("network"), "\(human.allOutput)")
    let json = try await baas.run(arguments + ["--json"])
    #expect(json.status == 2)
    let error = try #require(try json.json()["error"] as? [String: Any], "\(json.allOutput)")
    #expect(error["code"] as? String == "invalidInput")
    #expect((error["message"] as? String)?.contains(named) == true)
  }

  @Test(
    "an empty --display-name or --photo-url is accepted (it removes the field)",
    arguments: [
      ["--display-name", ""], ["--photo-url", ""], ["--display-name=", "--photo-url="],
    ])
  func emptyRemoves(options: [String]) async throws {
    var baas = try Baas()
    defer { baas.cleanUp() }
    baas.environment = unreachableFirebase
    // Past the argument checks: the backend answers (unsupported, notSignedIn or network).
    let result = try await baas.run(["account", "update"] + options + ["--json"])
    #expect(result.status == 1, "\(result.allOutput)")
    let error = try #require(try result.json()["error"] as? [String: Any])
    #expect(error["code"] as? String != "invalidInput")
  }

  @Test("an operation the backend lacks is unsupported, before the password is asked for")
  func unsupportedBeforePassword() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    // NCMB completes a password reset on its hosted web page only.
    let environment = [
      "BAAS_BACKEND": "ncmb", "NCMB_APPLICATION_KEY": "app", "NCMB_CLIENT_KEY": "client",
      "NCMB_BASE_URL": "http://127.0.0.1:9",
    ]
    let human = try await baas.run(
      ["account", "reset-password", "--code", "code-SECRET-1"], environment: environment)
    #expect(human.status == 1, "\(human.allOutput)")
    #expect(human.standardError.contains("unsupported"))
    #expect(human.standardError.contains("passwordResetCompletion"))
    #expect(human.standardError.contains("hint:"))
    #expect(!human.standardError.contains("BAAS_PASSWORD"), "no password was asked for")
    let json = try await baas.run(
      ["account", "reset-password", "--code", "code-SECRET-1", "--json"],
      environment: environment)
    #expect(json.status == 1)
    let error = try #require(try json.json()["error"] as? [String: Any])
    #expect(error["code"] as? String == "unsupported")
    #expect((error["message"] as? String)?.contains("passwordResetCompletion") == true)
    #expect(!(human.allOutput + json.allOutput).contains("SECRET"), "the code is not printed")
  }

  @Test(
    "a password given as an argument is refused without being echoed",
    arguments: [
      ["account", "password"], ["account", "reset-password", "--code", "c"],
      ["account", "link", "--email", "a@example.com"],
      ["account", "reauth", "--email", "a@example.com"],
    ])
  func passwordArgument(command: [String]) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    for extra in [["--password", "Tr0ub4dor-pw"], ["--password=Tr0ub4dor-pw"]] {
      let result = try await baas.run(command + extra)
      #expect(result.status == 2, "\(command + extra): \(result.allOutput)")
      #expect(!result.allOutput.contains("Tr0ub4dor"), "\(result.allOutput)")
      #expect(result.standardError.contains("BAAS_PASSWORD"))
    }
  }

  @Test(
    "baas account and baas doc list their commands",
    arguments: [
      (
        "account",
        [
          "update", "password", "reload", "send-verification", "verify-email",
          "reset-password", "link", "reauth",
        ]
      ),
      ("doc", ["get", "set", "delete"]),
    ])
  func groups(group: String, commands: [String]) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let bare = try await baas.run([group])
    #expect(bare.status == 2)
    let help = try await baas.run([group, "--help"])
    #expect(help.status == 0)
    let top = try await baas.run(["--help"])
    for command in commands {
      #expect(bare.standardError.contains("\(group) \(command) "), "\(command)")
      #expect(help.standardOutput.contains("\(group) \(command) "), "\(command)")
      #expect(top.standardOutput.contains("  \(group) \(command) "), "\(command)")
    }
    #expect(top.standardOutput.contains("--ensure-doc"))
  }

  @Test("doc --help documents the value notation and the JSON form")
  func docHelp() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let set = try await baas.run(["doc", "set", "--help"])
    #expect(set.status == 0)
    for word in ["@now", "@TIMESTAMP", "integer", "double", "{\"document\":"] {
      #expect(set.standardOutput.contains(word), "\(word)")
    }
    let get = try await baas.run(["doc", "get", "--help"])
    #expect(get.standardOutput.contains("RFC 3339"))
  }
}
