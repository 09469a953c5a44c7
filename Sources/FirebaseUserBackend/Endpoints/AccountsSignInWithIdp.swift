import BackendHTTP
import Foundation

/// `POST accounts:signInWithIdp` with an OpenID ID token and the raw nonce (Sign in with
/// Apple): `postBody` is `id_token=…&providerId=apple.com&nonce=RAW`, plus, when Apple
/// gave the user's full name, `user={"name":{"firstName":…,"lastName":…}}` (the shape of
/// Apple's own `user` parameter, which the official iOS SDK forwards so Firebase stores
/// the display name); `requestUri` is
/// `http://localhost`, and both `returnSecureToken` and `returnIdpCredential` are `true`
/// (docs/wire/firebase-auth.md §4).
struct SignInWithIdpRequest: FirebaseEndpoint, Encodable, Hashable {
  typealias Response = SignInWithIdpResponse
  static let service = FirebaseService.identityToolkit("accounts:signInWithIdp")

  /// The form-encoded credential.
  var postBody: String
  /// Always `"http://localhost"`, as the SDKs send it.
  var requestUri = "http://localhost"
  /// Always `true`: conflicts come back as HTTP 200 with `errorMessage`.
  var returnIdpCredential = true
  /// Always `true`.
  var returnSecureToken = true

  /// A request for `provider` with its ID token, optional raw nonce and optional full name.
  init(provider: String, idToken: String, rawNonce: String?, fullName: PersonNameComponents? = nil)
  {
    var pairs = [("id_token", idToken), ("providerId", provider)]
    if let rawNonce { pairs.append(("nonce", rawNonce)) }
    var name: [String: String] = [:]
    name["firstName"] = fullName?.givenName.flatMap { $0.isEmpty ? nil : $0 }
    name["lastName"] = fullName?.familyName.flatMap { $0.isEmpty ? nil : $0 }
    if !name.isEmpty,
      let user = try? JSONSerialization.data(
        withJSONObject: ["name": name], options: [.sortedKeys])
    {
      pairs.append(("user", String(decoding: user, as: UTF8.self)))
    }
    postBody = FormURLEncoding.encode(pairs)
  }
}

/// The `accounts:signInWithIdp` answer. A 200 answer carrying `errorMessage` is an error
/// (`FEDERATED_USER_ID_ALREADY_LINKED`, `EMAIL_EXISTS`); so is `needConfirmation`.
struct SignInWithIdpResponse: FirebaseResponse, Hashable {
  /// The user's ID.
  let localId: String?
  /// The provider ID, e.g. `"apple.com"`.
  let providerId: String?
  /// The email from the provider, when shared.
  let email: String?
  /// The display name, when known.
  let displayName: String?
  /// The ID token.
  let idToken: String?
  /// The refresh token.
  let refreshToken: String?
  /// The ID token lifetime.
  let expiresIn: WireSeconds?
  /// `true` when this sign-in created the account.
  let isNewUser: Bool?
  /// `true` when the account exists with another credential.
  let needConfirmation: Bool?
  /// An error reported inside a 200 answer.
  let errorMessage: String?

  var embeddedErrorMessage: String? {
    if let errorMessage, !errorMessage.isEmpty { return errorMessage }
    if needConfirmation == true { return "NEED_CONFIRMATION" }
    return nil
  }
}
