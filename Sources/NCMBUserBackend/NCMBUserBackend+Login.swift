import BackendHTTP
import Foundation
import UserBackendKit

/// One `login` request: which field identifies the account (`userName` or
/// `mailAddress`) and its value.
struct NCMBLoginAttempt: Sendable, Hashable {
  /// The wire field, `"userName"` or `"mailAddress"`.
  var field: String
  /// The value sent in it.
  var value: String
}

/// The JSON body of a `login` request, `{"password": …, "userName" | "mailAddress": …}`
/// (`docs/wire/ncmb.md` §3, "Log in"). A type rather than a `[String: String]`: the
/// encoder's generic path for dictionaries cost a tenth of the NCMB adapter's own sign-in
/// work (`baas bench`); the bytes are the same (the client's encoder sorts keys).
struct NCMBLoginRequest: Encodable {
  /// The identifying field and its value.
  var attempt: NCMBLoginAttempt
  /// The password.
  var password: String

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: NCMBWireKey.self)
    try container.encode(attempt.value, forKey: NCMBWireKey(stringValue: attempt.field))
    try container.encode(password, forKey: NCMBWireKey(stringValue: "password"))
  }
}

extension NCMBUserBackend {
  /// The `login` requests for an identifier, in order (see ``signIn(_:)``): the
  /// canonical `userName`; for an email, the typed `userName` when it differs, then the
  /// typed `mailAddress`.
  static func loginAttempts(
    typed: PasswordCredential.Identifier, canonical: PasswordCredential.Identifier
  ) -> [NCMBLoginAttempt] {
    switch (typed, canonical) {
    case (.email(let raw), .email(let email)):
      let asTyped = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        .precomposedStringWithCanonicalMapping
      var attempts = [NCMBLoginAttempt(field: "userName", value: email)]
      if asTyped != email { attempts.append(NCMBLoginAttempt(field: "userName", value: asTyped)) }
      attempts.append(NCMBLoginAttempt(field: "mailAddress", value: asTyped))
      return attempts
    case (_, .email(let email)):
      return [NCMBLoginAttempt(field: "userName", value: email)]
    case (_, .username(let name)):
      return [NCMBLoginAttempt(field: "userName", value: name)]
    }
  }

  /// Runs the `login` requests of ``signIn(_:)`` for a credential, one after the other
  /// while each is refused with E401002, and returns the first answer and its user;
  /// stores nothing.
  func authenticate(_ credential: PasswordCredential) async throws(UserBackendError) -> (
    NCMBUserResponse, User
  ) {
    let valid = try CredentialValidation.validate(
      credential, forSignUp: false, capabilities: capabilities)
    let (userName, mailAddress) = Self.wireIdentifier(valid.identifier)
    var lastError: UserBackendError?
    for attempt in Self.loginAttempts(typed: credential.identifier, canonical: valid.identifier) {
      do {
        return try await logIn(
          attempt, password: valid.password, sentUserName: userName,
          sentMailAddress: mailAddress)
      } catch  where error.backendCode == "E401002" {
        lastError = error
      }
    }
    throw lastError ?? UserBackendError(.invalidCredentials)
  }

  /// Sends one `login` request (JSON `POST`, or `GET` with a query under
  /// ``NCMBConfiguration/legacyGETLogin``); stores nothing.
  func logIn(
    _ attempt: NCMBLoginAttempt, password: String, sentUserName: String,
    sentMailAddress: String?
  ) async throws(UserBackendError) -> (NCMBUserResponse, User) {
    let endpoint: NCMBEndpoint
    if configuration.legacyGETLogin {
      endpoint = NCMBEndpoint(
        method: .get, pathSegments: ["login"],
        query: [
          URLQueryItem(name: attempt.field, value: attempt.value),
          URLQueryItem(name: "password", value: password),
        ], name: "login")
    } else {
      let body = try NCMBClient.json(NCMBLoginRequest(attempt: attempt, password: password))
      endpoint = NCMBEndpoint(method: .post, pathSegments: ["login"], body: body, name: "login")
    }
    let answer = try await perform(endpoint, sessionToken: nil)
    let response = try NCMBClient.decode(NCMBUserResponse.self, from: answer, endpoint: "login")
    let user = NCMBUserMapping.user(
      from: response, hasPasswordIdentity: true,
      sentUserName: attempt.field == "userName" ? attempt.value : sentUserName,
      sentMailAddress: sentMailAddress)
    guard let token = response.sessionToken, !token.isEmpty else {
      throw NCMBClient.malformed("login", "has no sessionToken")
    }
    return (response, user)
  }
}
