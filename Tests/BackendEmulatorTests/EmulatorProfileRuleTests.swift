import AccountDatabase
import BackendEmulator
import BackendHTTP
import Foundation
import Testing
import UserBackendKit

/// A profile value the client library refuses (``CredentialValidation/validateDisplayName(_:)``,
/// ``CredentialValidation/validatePhotoURL(_:)``), sent straight to the emulator.
struct BadProfileValue: Sendable, CustomTestStringConvertible {
  var name: String
  var value: String
  var testDescription: String { name }

  static let displayNames: [BadProfileValue] = [
    BadProfileValue(name: "ESC", value: "\u{1B}[31mred"),
    BadProfileValue(name: "U+202E", value: "evil\u{202E}gnp.exe"),
    BadProfileValue(name: "NUL", value: "a\u{0}b"),
    BadProfileValue(name: "whitespace only", value: " \t "),
    BadProfileValue(name: "257 characters", value: String(repeating: "d", count: 257)),
    BadProfileValue(name: "600 KB", value: String(repeating: "d", count: 600_000)),
  ]

  static let photoURLs: [BadProfileValue] = [
    BadProfileValue(name: "javascript:", value: "javascript:alert(1)"),
    BadProfileValue(name: "data:", value: "data:text/html,<b>x</b>"),
    BadProfileValue(name: "no host", value: "https://"),
    BadProfileValue(name: "relative", value: "/avatar.png"),
    BadProfileValue(name: "space", value: "https://example.com/a b.png"),
    BadProfileValue(name: "U+202E", value: "https://example.com/\u{202E}gnp.png"),
    BadProfileValue(
      name: "2049 characters",
      value: "https://example.com/" + String(repeating: "p", count: 2049 - 20)),
  ]
}

/// The emulator's Firebase API refuses what the client library refuses, on every endpoint
/// that takes a display name or a photo URL, and stores nothing then; its NCMB API, where
/// these are ordinary custom fields, stores them as the service does.
@Suite("Emulator: profile fields follow the client library's rule", .timeLimit(.minutes(2)))
struct EmulatorProfileRuleTests {
  let store: UserStore
  let emulator: BackendEmulator
  let firebase = FirebaseRequests()
  let ncmb = NCMBRequests()

  init() throws {
    store = try makeStore()
    emulator = BackendEmulator(store: store)
  }

  func call(_ operation: String, _ body: [String: Any]) async -> HTTPResponse {
    await emulator.handle(firebase.accounts(operation, body))
  }

  func firebaseUser(_ idToken: Any) async throws -> [String: Any] {
    let response = await call("lookup", ["idToken": idToken])
    return try #require((response.json["users"] as? [[String: Any]])?.first)
  }

  @Test(
    "Firebase accounts:update refuses a bad display name", arguments: BadProfileValue.displayNames)
  func firebaseUpdateDisplayName(_ bad: BadProfileValue) async throws {
    let created = await call(
      "signUp", ["email": "ann@example.com", "password": "secret1", "displayName": "Ann"])
    let idToken = try #require(created.json["idToken"] as? String)
    let answer = await call(
      "update", ["idToken": idToken, "displayName": bad.value, "photoUrl": "https://a.example/p"])
    #expect(answer.status == 400)
    #expect(answer.firebaseMessage?.hasPrefix("INVALID_DISPLAY_NAME : ") == true)
    let user = try await firebaseUser(idToken)
    #expect(user["displayName"] as? String == "Ann")
    #expect(user["photoUrl"] == nil)
  }

  @Test("Firebase accounts:update refuses a bad photo URL", arguments: BadProfileValue.photoURLs)
  func firebaseUpdatePhotoURL(_ bad: BadProfileValue) async throws {
    let created = await call("signUp", ["email": "ann@example.com", "password": "secret1"])
    let idToken = try #require(created.json["idToken"] as? String)
    let answer = await call(
      "update", ["idToken": idToken, "displayName": "Ann", "photoUrl": bad.value])
    #expect(answer.status == 400)
    #expect(answer.firebaseMessage?.hasPrefix("INVALID_ARGUMENT : photoUrl ") == true)
    let user = try await firebaseUser(idToken)
    #expect(user["displayName"] == nil)
    #expect(user["photoUrl"] == nil)
  }

  @Test("a refused profile change leaves an email change in the same request undone")
  func firebaseUpdateIsAllOrNothing() async throws {
    let created = await call("signUp", ["email": "ann@example.com", "password": "secret1"])
    let idToken = try #require(created.json["idToken"] as? String)
    let answer = await call(
      "update",
      [
        "idToken": idToken, "email": "new@example.com", "password": "secret2",
        "photoUrl": "ftp://x/y",
      ])
    #expect(answer.status == 400)
    #expect(try await firebaseUser(idToken)["email"] as? String == "ann@example.com")
    let signIn = await call(
      "signInWithPassword", ["email": "ann@example.com", "password": "secret1"])
    #expect(signIn.status == 200)
  }

  @Test(
    "Firebase signUp refuses a bad display name (email and anonymous)",
    arguments: BadProfileValue.displayNames)
  func firebaseSignUpDisplayName(_ bad: BadProfileValue) async throws {
    let email = await call(
      "signUp", ["email": "ann@example.com", "password": "secret1", "displayName": bad.value])
    #expect(email.firebaseMessage?.hasPrefix("INVALID_DISPLAY_NAME : ") == true)
    let anonymous = await call("signUp", ["displayName": bad.value])
    #expect(anonymous.firebaseMessage?.hasPrefix("INVALID_DISPLAY_NAME : ") == true)
    #expect(try store.userCount() == 0)
  }

  @Test("a good display name is stored as the library stores it (NFC), in the ID token too")
  func firebaseGoodNames() async throws {
    let created = await call(
      "signUp",
      ["email": "ann@example.com", "password": "secret1", "displayName": "Jose\u{301} Ann"])
    #expect(created.status == 200)
    let idToken = try #require(created.json["idToken"] as? String)
    #expect(try claims(of: idToken)["name"] as? String == "Jos\u{E9} Ann")
    let updated = await call(
      "update",
      [
        "idToken": idToken, "displayName": String(repeating: "n", count: 256),
        "photoUrl": "https://example.com/a.png", "returnSecureToken": true,
      ])
    #expect(updated.status == 200)
    let user = try await firebaseUser(idToken)
    #expect(user["photoUrl"] as? String == "https://example.com/a.png")
    #expect((user["displayName"] as? String)?.count == 256)
  }

  @Test("signInWithIdp drops a name claim the rule refuses, and bounds the subject")
  func firebaseIdentityProviderName() async throws {
    func signIn(_ claims: [String: Any]) async -> HTTPResponse {
      var all: [String: Any] = ["iss": "https://appleid.apple.com", "aud": "com.example.app"]
      all.merge(claims) { $1 }
      let token = JSONWebToken.unsigned(claims: all)
      return await call(
        "signInWithIdp",
        ["postBody": "id_token=\(token)&providerId=apple.com", "requestUri": "http://localhost"])
    }
    let answer = await signIn(["sub": "apple-1", "name": String(repeating: "n", count: 600_000)])
    #expect(answer.status == 200)
    #expect(answer.json["displayName"] == nil)
    let idToken = try #require(answer.json["idToken"] as? String)
    #expect(try claims(of: idToken)["name"] == nil)
    #expect(idToken.utf8.count < 16_384)
    let escaped = await signIn(["sub": "apple-2", "name": "\u{1B}]0;x\u{7}"])
    #expect(escaped.json["displayName"] == nil)
    let good = await signIn(["sub": "apple-3", "name": "Ada"])
    #expect(good.json["displayName"] as? String == "Ada")
    let longSubject = await signIn(["sub": String(repeating: "s", count: 256)])
    #expect(longSubject.firebaseMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true)
    let longProvider = await call(
      "signInWithIdp",
      [
        "postBody": "id_token=\(JSONWebToken.unsigned(claims: ["sub": "x"]))&providerId="
          + String(repeating: "p", count: 256),
        "requestUri": "http://localhost",
      ])
    #expect(longProvider.firebaseMessage?.hasPrefix("INVALID_PROVIDER_ID") == true)
  }

  // MARK: NCMB

  /// Signs up `name` over NCMB; returns its objectId and session token.
  func ncmbUser(_ name: String = "ann") async throws -> (id: String, token: String) {
    let created = await emulator.handle(
      ncmb.request(.post, "/2013-09-01/users", body: ["userName": name, "password": "secret1"]))
    return (
      try #require(created.json["objectId"] as? String),
      try #require(created.json["sessionToken"] as? String)
    )
  }

  func ncmbPut(_ user: (id: String, token: String), _ body: [String: Any]) async -> HTTPResponse {
    await emulator.handle(
      ncmb.request(.put, "/2013-09-01/users/\(user.id)", body: body, sessionToken: user.token))
  }

  func ncmbGet(_ user: (id: String, token: String)) async -> [String: Any] {
    await emulator.handle(
      ncmb.request(.get, "/2013-09-01/users/\(user.id)", sessionToken: user.token)
    ).json
  }

  /// On NCMB `displayName` and `photoURL` are ordinary custom fields of the user object:
  /// the service has no rule of its own for them, so the emulator invents none. Any text
  /// (the library drops one over its limits when it reads the user), any JSON type, and
  /// the text as sent (no NFC).
  @Test(
    "NCMB PUT users stores displayName and photoURL as any custom field",
    arguments: BadProfileValue.displayNames + BadProfileValue.photoURLs)
  func ncmbProfileFieldsAreCustomFields(_ value: BadProfileValue) async throws {
    for name in ["displayName", "photoURL"] {
      // A user each: two 600 KB values would pass the 1 MiB document limit together.
      let user = try await ncmbUser(name == "displayName" ? "ann" : "bob")
      let answer = await ncmbPut(user, [name: value.value])
      #expect(answer.status == 200, "\(name): \(answer.json)")
      #expect(await ncmbGet(user)[name] as? String == value.value)
    }
  }

  @Test("NCMB profile fields: other JSON types and unnormalised text are stored as sent")
  func ncmbProfileTypes() async throws {
    let user = try await ncmbUser()
    let set = await ncmbPut(user, ["displayName": 5, "photoURL": ["x": 1]])
    #expect(set.status == 200)
    var stored = await ncmbGet(user)
    #expect(stored["displayName"] as? Int == 5)
    #expect((stored["photoURL"] as? [String: Any])?["x"] as? Int == 1)
    #expect(await ncmbPut(user, ["displayName": "Jose\u{301}"]).status == 200)
    #expect(await ncmbGet(user)["displayName"] as? String == "Jose\u{301}")
    #expect(
      await ncmbPut(user, ["displayName": NSNull(), "photoURL": ["__op": "Delete"]]).status == 200)
    stored = await ncmbGet(user)
    #expect(stored["displayName"] == nil || stored["displayName"] is NSNull)
    #expect(stored["photoURL"] == nil)
  }
}
