import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every command that stores a new session over the stored one (`signup`, `signin`,
/// `signin --anonymous`, `phone verify`) discards a stored guest (anonymous) session as
/// `signout` would: the guest account is lost for good. Each is refused like `signout`
/// (exit 1, `invalidInput` naming `--force`, `baas account link` named, the guest kept,
/// nothing created on the server), and replaces the guest with `--force` and a warning.
/// A password session is replaced as before, without `--force` and without a warning.
@Suite("baas commands that would replace a guest session", .timeLimit(.minutes(10)))
struct GuestReplacementTests {
  /// A command that stores a new session, with what it needs set up first (in a state
  /// where nobody is signed in) and the arguments that run it.
  struct Replacer: Sendable, CustomTestStringConvertible {
    var name: String
    var arguments: [String]
    var environment: [String: String]
    var testDescription: String { name }
  }

  /// The replacing commands: the fake backend offers each.
  static let replacers: [Replacer] = [
    Replacer(
      name: "signup", arguments: ["signup", "--email", "new-guest-rival@example.com"],
      environment: ["BAAS_PASSWORD": "pw-rival-Secret!"]),
    Replacer(
      name: "signin", arguments: ["signin", "--email", "existing@example.com"],
      environment: ["BAAS_PASSWORD": "pw-existing-Secret!"]),
    Replacer(name: "signin --anonymous", arguments: ["signin", "--anonymous"], environment: [:]),
    Replacer(
      name: "signin --anonymous --ensure-doc",
      arguments: ["signin", "--anonymous", "--ensure-doc"], environment: [:]),
    Replacer(name: "phone verify", arguments: ["phone", "verify", "--code"], environment: [:]),
  ]

  /// Prepares `replacer` while nobody is signed in (the account `signin` uses, the pending
  /// verification `phone verify` finishes) and returns its full arguments.
  static func prepare(_ replacer: Replacer, _ baas: Baas) async throws -> [String] {
    switch replacer.name {
    case "signin":
      let signUp = try await baas.run(
        ["signup", "--email", "existing@example.com"], environment: replacer.environment)
      try #require(signUp.status == 0, "\(signUp.allOutput)")
      let signOut = try await baas.run(["signout"])
      try #require(signOut.status == 0, "\(signOut.allOutput)")
      return replacer.arguments
    case "phone verify":
      let start = try await baas.run(["phone", "start", "--phone-number", "+15550009876"])
      try #require(start.status == 0, "\(start.allOutput)")
      let code = try #require(
        start.standardError.split(separator: " ").last.map {
          $0.trimmingCharacters(in: .whitespacesAndNewlines)
        })
      return replacer.arguments + [code]
    default:
      return replacer.arguments
    }
  }

  /// Signs in as a guest and returns its user ID.
  static func signInGuest(_ baas: Baas) async throws -> String {
    let guest = try await baas.run(["signin", "--anonymous", "--json"])
    try #require(guest.status == 0, "\(guest.allOutput)")
    let user = try #require(try guest.json()["user"] as? [String: Any])
    return try #require(user["id"] as? String)
  }

  /// The signed-in user's ID and whether it is anonymous, from `whoami --json`.
  static func signedIn(_ baas: Baas) async throws -> (id: String, anonymous: Bool)? {
    let whoami = try await baas.run(["whoami", "--json"])
    guard whoami.status == 0 else { return nil }
    let user = try #require(try whoami.json()["user"] as? [String: Any])
    return (try #require(user["id"] as? String), user["isAnonymous"] as? Bool ?? false)
  }

  @Test(
    "refused without --force (text and JSON), the guest kept; --force replaces it",
    arguments: replacers)
  func refusedThenForced(replacer: Replacer) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let arguments = try await Self.prepare(replacer, baas)
    let guest = try await Self.signInGuest(baas)

    let refused = try await baas.run(arguments, environment: replacer.environment)
    #expect(refused.status == 1, "\(refused.allOutput)")
    #expect(refused.standardError.contains("guest"), "\(refused.allOutput)")
    #expect(refused.standardError.contains("baas account link"), "\(refused.allOutput)")
    #expect(refused.standardError.contains("--force"), "\(refused.allOutput)")
    #expect(refused.standardOutput.isEmpty, "\(refused.allOutput)")
    #expect(try await Self.signedIn(baas)?.id == guest, "the guest session stays")

    let json = try await baas.run(arguments + ["--json"], environment: replacer.environment)
    #expect(json.status == 1, "\(json.allOutput)")
    let error = try #require(try json.json()["error"] as? [String: Any], "\(json.allOutput)")
    #expect(error["code"] as? String == "invalidInput")
    #expect(try await Self.signedIn(baas)?.id == guest, "the guest session stays")

    // The refusals created nothing: signup's account does not exist yet, the phone
    // verification is still pending.
    let forced = try await baas.run(arguments + ["--force"], environment: replacer.environment)
    #expect(forced.status == 0, "\(forced.allOutput)")
    #expect(forced.standardError.contains("guest"), "a warning: \(forced.allOutput)")
    let now = try #require(try await Self.signedIn(baas), "signed in after --force")
    #expect(now.id != guest)
  }

  @Test(
    "a password session is replaced without --force and without a warning", arguments: replacers)
  func passwordSessionReplaced(replacer: Replacer) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let arguments = try await Self.prepare(replacer, baas)
    let account = uniqueAccount()
    let signUp = try await baas.run(
      ["signup", "--email", account.email], environment: ["BAAS_PASSWORD": account.password])
    try #require(signUp.status == 0, "\(signUp.allOutput)")
    let before = try #require(try await Self.signedIn(baas))

    let replaced = try await baas.run(arguments, environment: replacer.environment)
    #expect(replaced.status == 0, "\(replaced.allOutput)")
    #expect(!replaced.standardError.contains("warning"), "\(replaced.allOutput)")
    #expect(try await Self.signedIn(baas)?.id != before.id)
  }

  @Test(
    "a guest session file others can read: no command discards it without --force",
    arguments: replacers)
  func untrustedGuestKept(replacer: Replacer) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let arguments = try await Self.prepare(replacer, baas)
    let guest = try await Self.signInGuest(baas)
    let file = baas.home.appendingPathComponent("fake.session.json")
    #expect(chmod(file.path, 0o644) == 0)

    let refused = try await baas.run(arguments, environment: replacer.environment)
    #expect(refused.status == 1, "\(refused.allOutput)")
    #expect(refused.standardError.contains(file.path), "\(refused.allOutput)")
    #expect(refused.standardError.contains("0644"), "\(refused.allOutput)")
    #expect(refused.standardError.contains("chmod 600"), "\(refused.allOutput)")
    #expect(refused.standardError.contains("--force"), "\(refused.allOutput)")
    #expect(
      !refused.standardError.contains("discarding the session file"), "\(refused.allOutput)")
    #expect(FileManager.default.fileExists(atPath: file.path))

    // Made private again, the guest is there.
    #expect(chmod(file.path, 0o600) == 0)
    #expect(try await Self.signedIn(baas)?.id == guest)
  }
}

/// `baas signout` of a guest whose session file others can read or write (which baas
/// does not use): the file is not removed without `--force`; the message names the file,
/// its mode, `chmod 600` and `--force`. With `--force` it is removed. Every backend.
@Suite("baas signout of a guest session file baas does not trust", .timeLimit(.minutes(5)))
struct UntrustedGuestSignOutTests {
  @Test(
    "signout keeps it, names the fix; --force removes it", arguments: ["fake", "firebase", "ncmb"])
  func untrustedGuestSignOut(backend: String) async throws {
    var baas = try Baas()
    defer { baas.cleanUp() }
    var emulator: RunningEmulator?
    defer { if let emulator { kill(emulator.process.processIdentifier, SIGKILL) } }
    if backend != "fake" {
      let running = try await RunningEmulator.start(in: baas.home)
      emulator = running
      baas.environment = [
        "BAAS_BACKEND": backend,
        "FIREBASE_API_KEY": "test-api-key", "FIREBASE_PROJECT_ID": "demo-project",
        "FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:\(running.port)",
        "NCMB_BASE_URL": "http://127.0.0.1:\(running.port)",
        "NCMB_APPLICATION_KEY": running.applicationKey, "NCMB_CLIENT_KEY": running.clientKey,
      ]
    }
    let signIn = try await baas.run(["signin", "--anonymous"])
    try #require(signIn.status == 0, "\(signIn.allOutput)")
    let sessions = try FileManager.default.contentsOfDirectory(atPath: baas.home.path)
      .filter { $0.hasSuffix(".session.json") }
    try #require(sessions.count == 1, "\(sessions)")
    let file = baas.home.appendingPathComponent(sessions[0])

    // Another guest over it: refused on every backend too.
    let again = try await baas.run(["signin", "--anonymous"])
    #expect(again.status == 1, "\(again.allOutput)")
    #expect(again.standardError.contains("--force"), "\(again.allOutput)")

    for mode: mode_t in [0o644, 0o606] {
      #expect(chmod(file.path, mode) == 0)
      for arguments in [["signout"], ["signout", "--json"], ["signin", "--anonymous"]] {
        let refused = try await baas.run(arguments)
        #expect(refused.status == 1, "\(arguments): \(refused.allOutput)")
        #expect(FileManager.default.fileExists(atPath: file.path), "\(arguments) removed it")
        if !arguments.contains("--json") {
          #expect(refused.standardError.contains(file.path), "\(refused.allOutput)")
          #expect(
            refused.standardError.contains("0\(String(mode, radix: 8))"), "\(refused.allOutput)")
          #expect(refused.standardError.contains("chmod 600"), "\(refused.allOutput)")
          #expect(refused.standardError.contains("--force"), "\(refused.allOutput)")
        }
      }
    }
    let forced = try await baas.run(["signout", "--force"])
    #expect(forced.status == 0, "\(forced.allOutput)")
    #expect(forced.standardError.contains("guest"), "\(forced.allOutput)")
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }
}
