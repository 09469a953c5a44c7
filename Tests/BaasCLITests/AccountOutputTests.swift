import Foundation
import Testing
import UserBackendKit

@testable import baas

/// A backend with chosen capabilities whose every operation fails: the capability gate
/// must refuse before any of them runs.
private struct GateBackend: UserBackend {
  var capabilities: Set<Capability>
  var backendID: String { "gate" }
  private func fail() -> UserBackendError { UserBackendError(.network(reason: "called")) }
  func signUp(_ credential: PasswordCredential) async throws(UserBackendError) -> AuthSession {
    throw fail()
  }
  func signIn(_ credential: PasswordCredential) async throws(UserBackendError) -> AuthSession {
    throw fail()
  }
  func currentUser() async throws(UserBackendError) -> User? { throw fail() }
  func signOut() async throws(UserBackendError) { throw fail() }
  func idToken(forceRefresh: Bool) async throws(UserBackendError) -> String { throw fail() }
}

/// Parses `text` as one JSON object.
private func object(_ text: String) throws -> [String: Any] {
  try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}

@Suite(
  "baas account and signin --ensure-doc: user JSON, hints, capability gate", .timeLimit(.minutes(1))
)
struct AccountOutputTests {
  @Test("every command's user object: the profile fields, ISO 8601 times, null when unknown")
  func userFields() throws {
    let user = User(
      id: "u1", email: "ada@example.com", displayName: "Ada \u{1B}", providers: ["password"],
      emailVerified: true, photoURL: URL(string: "https://example.com/a.png"),
      createdAt: Date(timeIntervalSince1970: 1_764_555_256.123), lastSignInAt: nil)
    let json = try object(JSONOutput.user(user))
    let fields = try #require(json["user"] as? [String: Any])
    #expect(
      Set(fields.keys) == [
        "id", "email", "username", "phoneNumber", "displayName", "photoURL", "isAnonymous",
        "providers", "emailVerified", "createdAt", "lastSignInAt",
      ])
    #expect(fields["displayName"] as? String == "Ada \u{1B}")
    #expect(fields["photoURL"] as? String == "https://example.com/a.png")
    #expect(fields["emailVerified"] as? Bool == true)
    #expect(fields["createdAt"] as? String == "2025-12-01T02:14:16.123Z")
    #expect(fields["lastSignInAt"] is NSNull)
    let unknown = try #require(
      try object(JSONOutput.user(User(id: "u2")))["user"] as? [String: Any])
    for key in ["displayName", "photoURL", "emailVerified", "createdAt", "lastSignInAt"] {
      #expect(unknown[key] is NSNull, "\(key)")
    }
    #expect(JSONOutput.user(nil) == "{\"user\":null}")
  }

  @Test("signin --ensure-doc --json: created, the document and the user in one object")
  func ensureDocumentJSON() throws {
    let user = User(id: "u1", email: "ada@example.com", providers: ["password"])
    let document = UserDocument(
      userID: "u1",
      fields: ["uid": .string("u1"), "create_date": .timestamp(Date(timeIntervalSince1970: 0))])
    let created = SignInOutcome(
      user: user, creation: DocumentCreation(document: document, created: true))
    let json = try object(created.json)
    #expect(Set(json.keys) == ["created", "document", "user"])
    #expect(json["created"] as? Bool == true)
    let fields = try #require((json["document"] as? [String: Any])?["fields"] as? [String: Any])
    #expect(fields["create_date"] as? String == "1970-01-01T00:00:00.000Z")
    #expect((json["user"] as? [String: Any])?["id"] as? String == "u1")
    #expect(created.lines.contains("Created the user's document:"))
    #expect(created.lines.contains("  uid: u1"))
    let existing = SignInOutcome(
      user: user, creation: DocumentCreation(document: document, created: false))
    #expect(try object(existing.json)["created"] as? Bool == false)
    #expect(existing.lines.contains { $0.contains("exists") })
    #expect(SignInOutcome(user: user).json == JSONOutput.user(user))
  }

  @Test(
    "the new errors have hints",
    arguments: [
      (UserBackendError.Code.requiresRecentLogin, "baas account reauth"),
      (.userMismatch, "signed-in user"), (.permissionDenied, "--user"),
    ])
  func hints(code: UserBackendError.Code, hint: String) {
    #expect(HumanOutput.hint(for: UserBackendError(code), backend: "fake")?.contains(hint) == true)
  }

  @Test("unsupported on the fake itself does not suggest --backend fake")
  func unsupportedOnFake() {
    let error = UserBackendError(.unsupported(capability: .userDocuments))
    let fake = HumanOutput.hint(for: error, backend: "fake") ?? ""
    #expect(fake.contains("userDocuments"))
    #expect(!fake.contains("--backend fake"), "\(fake)")
    #expect(HumanOutput.hint(for: error, backend: "ncmb")?.contains("--backend fake") == true)
  }

  @Test("a capability the backend lacks is unsupported, naming it, before any operation")
  func capabilityGate() throws {
    let backend = GateBackend(capabilities: [.emailPassword, .profileUpdate])
    #expect(throws: Never.self) {
      _ = try Context.checking([.profileUpdate], of: backend)
    }
    for missing in [
      Capability.userDocuments, .emailUpdate, .passwordUpdate, .userReload, .emailVerification,
      .passwordResetCompletion, .reauthentication, .anonymousUpgrade,
    ] {
      #expect {
        _ = try Context.checking([.profileUpdate, missing], of: backend)
      } throws: { error in
        (error as? UserBackendError)?.code == .unsupported(capability: missing)
      }
    }
  }

  @Test(
    "--photo-url: absolute http(s) with a host, or empty",
    arguments: [
      ("https://example.com/a.png", true), ("HTTP://example.com", true), ("", true),
      ("ftp://example.com/a.png", false), ("/a.png", false), ("https://", false),
      ("example.com/a.png", false), ("javascript:alert(1)", false), ("https:///a.png", false),
    ])
  func photoURL(text: String, valid: Bool) {
    let accepted = (try? AccountManagementCommands.checkPhotoURL(text, command: "x")) != nil
    #expect(accepted == valid, "\(text)")
  }
}
