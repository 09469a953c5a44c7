import AccountDatabase
import BackendHTTP
import Foundation
import UserBackendKit

// `POST users` with `authData` (`docs/wire/ncmb.md` §3, "Anonymous login", "SNS
// sign-up/login", "authData shapes").
extension NCMBHandler {
  /// Signs in or up through one `authData` provider: `anonymous` `{"id"}` or `apple`
  /// `{"id","access_token","client_id"}`. 201 with a new account, 200 with an existing
  /// one; other providers are not enabled here (`E403005 <provider> must not be entered.`).
  ///
  /// For `apple`, an `access_token` that is a JWT (unsigned test tokens are accepted)
  /// must have `sub` equal to `id` and must not be past its `exp` by the store clock,
  /// else `E401003 OAuth apple authentication error.`; any other value (an authorization
  /// code) is accepted as is.
  func authDataSignIn(_ authData: WireObject) throws(NCMBError) -> HTTPResponse {
    guard authData.fields.count == 1, let key = authData.fields.keys.first else {
      throw NCMBError("E400002", "authData is invalid.")
    }
    guard let entry = authData.object(key) else { throw .empty(key) }
    guard let id = entry.string("id"), !id.isEmpty else { throw .empty("id") }
    // OpenID Connect caps a subject at 255 characters; an anonymous id is a UUID.
    try Self.checkLength("id", id, maximum: 255)
    let provider: String
    switch key {
    case "anonymous":
      provider = "anonymous"
    case "apple":
      provider = "apple.com"
      try checkAppleToken(entry.string("access_token"), id: id)
    default:
      throw .mustNotBeEntered(key)
    }
    var created = false
    var user = try ncmbStore { try store.user(provider: provider, subject: id) }
    if user == nil {
      do {
        user = try store.createUser(
          NewUser(
            username: Self.randomUserName(store.randomness), provider: provider,
            providerSubject: id,
            isAnonymous: provider == "anonymous"))
        created = true
      } catch UserStoreError.duplicate(field: "providerSubject") {
        // Another request created it first: this one signs in.
        user = try ncmbStore { try store.user(provider: provider, subject: id) }
      } catch {
        throw NCMBError.from(error)
      }
    }
    guard let user else { throw .systemError }
    guard !user.disabled else { throw .oauthFailed(key) }
    let token = try ncmbStore { try store.createSessionToken(userID: user.id) }
    var answer = Self.userObject(user, authData: [key: ["id": id]])
    answer["sessionToken"] = token
    return WireResponse.jsonKeepingNumberKinds(created ? 201 : 200, answer)
  }

  private func checkAppleToken(_ accessToken: String?, id: String) throws(NCMBError) {
    guard let accessToken, !accessToken.isEmpty else { throw .empty("access_token") }
    guard let token = try? JSONWebToken(parsing: accessToken) else { return }
    guard token.stringClaim("sub") == id else { throw .oauthFailed("apple") }
    if let expiry = token.expiresAt, expiry <= store.clock.now() {
      throw .oauthFailed("apple")
    }
  }

  /// A random 10-character alphanumeric user name, as NCMB gives anonymous users (from the
  /// store's randomness, so a seeded store gives reproducible names).
  static func randomUserName(_ randomness: UserStoreRandomness) -> String {
    let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    return String(randomness.bytes(10).map { alphabet[Int($0) % alphabet.count] })
  }
}
