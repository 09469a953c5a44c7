import AccountDatabase
import BackendEmulator
import BackendHTTP
import Foundation
import Testing
import UserBackendKit

/// The emulator's account management over the Firebase API: `accounts:update`,
/// `accounts:sendOobCode`, `accounts:resetPassword`, `accounts:lookup` fields, recent
/// sign-in, and the `oobCodes` listing.
@Suite("Emulator: Firebase account management", .timeLimit(.minutes(1)))
struct FirebaseAccountManagementTests {
  let clock = ManualClock()
  let store: UserStore
  let emulator: BackendEmulator
  let firebase = FirebaseRequests()

  init() throws {
    store = try makeStore(clock: clock)
    emulator = BackendEmulator(store: store)
  }

  private func call(_ operation: String, _ body: [String: Any]) async -> HTTPResponse {
    await emulator.handle(firebase.accounts(operation, body))
  }

  private func signUp(_ email: String, _ password: String = "secret1") async throws -> [String: Any]
  {
    let response = await call("signUp", ["email": email, "password": password])
    try #require(response.status == 200)
    return response.json
  }

  private func oobCodes(base: String = "http://127.0.0.1:9099") async -> [[String: Any]] {
    let response = await emulator.handle(
      HTTPRequest(
        method: .get, url: URL(string: "\(base)/emulator/v1/projects/demo-project/oobCodes")!))
    return response.json["oobCodes"] as? [[String: Any]] ?? []
  }

  private func lookup(_ idToken: Any) async throws -> [String: Any] {
    let response = await call("lookup", ["idToken": idToken])
    try #require(response.status == 200, "\(response.firebaseMessage ?? "")")
    return try #require((response.json["users"] as? [[String: Any]])?.first)
  }

  @Test func lookupCarriesTheNewFields() async throws {
    let signedUp = try await signUp("ann@example.com")
    clock.advance(by: 30)
    let signedIn = await call(
      "signInWithPassword", ["email": "ann@example.com", "password": "secret1"])
    let user = try await lookup(signedIn.json["idToken"] as Any)
    #expect(user["emailVerified"] as? Bool == false)
    let created = try #require(user["createdAt"] as? String)
    let lastLogin = try #require(user["lastLoginAt"] as? String)
    #expect(Int64(lastLogin)! - Int64(created)! == 30_000)
    #expect(user["localId"] as? String == signedUp["localId"] as? String)
  }

  @Test func profileIsSetAndDeletedAttributesAreRemoved() async throws {
    let idToken = try await signUp("ann@example.com")["idToken"] as Any
    var response = await call(
      "update",
      ["idToken": idToken, "displayName": "Ann", "photoUrl": "https://example.com/a.png"])
    #expect(response.status == 200)
    #expect(response.json["photoUrl"] as? String == "https://example.com/a.png")
    #expect(response.json["idToken"] == nil)  // profile only: no new tokens
    var user = try await lookup(idToken)
    #expect(user["displayName"] as? String == "Ann")
    #expect(user["photoUrl"] as? String == "https://example.com/a.png")
    response = await call(
      "update", ["idToken": idToken, "deleteAttribute": ["DISPLAY_NAME", "PHOTO_URL"]])
    #expect(response.status == 200)
    user = try await lookup(idToken)
    #expect(user["displayName"] == nil && user["photoUrl"] == nil)
  }

  @Test func aPasswordChangeReturnsNewTokensAndTheOldPasswordFails() async throws {
    let idToken = try await signUp("ann@example.com")["idToken"] as Any
    clock.advance(by: 1)
    let response = await call(
      "update", ["idToken": idToken, "password": "changed1", "returnSecureToken": true])
    #expect(response.status == 200)
    let newToken = try #require(response.json["idToken"] as? String)
    #expect(response.json["refreshToken"] is String)
    #expect(await call("lookup", ["idToken": idToken]).firebaseMessage == "TOKEN_EXPIRED")
    _ = try await lookup(newToken)
    let old = await call("signInWithPassword", ["email": "ann@example.com", "password": "secret1"])
    #expect(old.firebaseMessage == "INVALID_LOGIN_CREDENTIALS")
    let new = await call(
      "signInWithPassword", ["email": "ann@example.com", "password": "changed1"])
    #expect(new.status == 200)
  }

  @Test func anEmailChangeIsVisibleAndTakenEmailsAreRefused() async throws {
    _ = try await signUp("bob@example.com")
    let idToken = try await signUp("ann@example.com")["idToken"] as Any
    let taken = await call("update", ["idToken": idToken, "email": "BOB@example.com"])
    #expect(taken.firebaseMessage == "EMAIL_EXISTS")
    let malformed = await call("update", ["idToken": idToken, "email": "nope"])
    #expect(malformed.firebaseMessage == "INVALID_EMAIL")
    let changed = await call("update", ["idToken": idToken, "email": "Ann.New@example.com"])
    #expect(changed.status == 200)
    #expect(changed.json["email"] as? String == "ann.new@example.com")
    let newToken = try #require(changed.json["idToken"] as? String)
    let user = try await lookup(newToken)
    #expect(user["email"] as? String == "ann.new@example.com")
    #expect(user["emailVerified"] as? Bool == false)
  }

  @Test func sensitiveChangesNeedARecentSignIn() async throws {
    let idToken = try await signUp("ann@example.com")["idToken"] as Any
    clock.advance(by: 301)
    for body: [String: Any] in [
      ["idToken": idToken, "password": "changed1"], ["idToken": idToken, "email": "x@example.com"],
    ] {
      #expect(await call("update", body).firebaseMessage == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
    }
    #expect(
      await call("delete", ["idToken": idToken]).firebaseMessage
        == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
    // A profile change is not sensitive.
    #expect(await call("update", ["idToken": idToken, "displayName": "A"]).status == 200)
    // Signing in again (Firebase's reauthentication) makes it recent.
    let again = await call(
      "signInWithPassword", ["email": "ann@example.com", "password": "secret1"])
    let fresh = try #require(again.json["idToken"] as? String)
    #expect(await call("update", ["idToken": fresh, "password": "changed1"]).status == 200)
  }

  @Test func theWindowIsAnOptionAndNilNeverRefuses() async throws {
    let relaxed = BackendEmulator(store: store, recentLoginWindow: nil)
    let response = await relaxed.handle(
      firebase.accounts("signUp", ["email": "ann@example.com", "password": "secret1"]))
    clock.advance(by: 3_000)  // well past the default window, before the ID token expires
    let change = await relaxed.handle(
      firebase.accounts(
        "update", ["idToken": response.json["idToken"] as Any, "password": "changed1"]))
    #expect(change.status == 200)
  }

  @Test func aGuestIsLinkedToAPasswordWithTheSameID() async throws {
    _ = try await signUp("taken@example.com")
    let guest = await call("signUp", [:]).json
    let guestToken = try #require(guest["idToken"] as? String)
    clock.advance(by: 3000)  // a guest needs no recent sign-in to link
    let taken = await call(
      "update", ["idToken": guestToken, "email": "taken@example.com", "password": "secret1"])
    #expect(taken.firebaseMessage == "EMAIL_EXISTS")
    let linked = await call(
      "update",
      [
        "idToken": guestToken, "email": "guest@example.com", "password": "secret1",
        "returnSecureToken": true,
      ])
    #expect(linked.status == 200)
    #expect(linked.json["localId"] as? String == guest["localId"] as? String)
    let token = try #require(linked.json["idToken"] as? String)
    let firebaseClaims = try claims(of: token)["firebase"] as? [String: Any]
    #expect(firebaseClaims?["sign_in_provider"] as? String == "password")
    let user = try await lookup(token)
    #expect(
      (user["providerUserInfo"] as? [[String: Any]])?.first?["providerId"] as? String
        == "password")
    let signIn = await call(
      "signInWithPassword", ["email": "guest@example.com", "password": "secret1"])
    #expect(signIn.json["localId"] as? String == guest["localId"] as? String)
  }

  @Test func emailVerificationCompletesWithTheListedCode() async throws {
    let idToken = try await signUp("ann@example.com")["idToken"] as Any
    let sent = await call("sendOobCode", ["requestType": "VERIFY_EMAIL", "idToken": idToken])
    #expect(sent.json["email"] as? String == "ann@example.com")
    let listed = await oobCodes()
    #expect(listed.count == 1)
    #expect(listed.first?["requestType"] as? String == "VERIFY_EMAIL")
    let code = try #require(listed.first?["oobCode"] as? String)
    let link = try #require(listed.first?["oobLink"] as? String)
    #expect(
      link.hasPrefix("http://127.0.0.1:9099/emulator/action?mode=verifyEmail&lang=en&oobCode="))
    #expect(link.hasSuffix("&apiKey=fake-api-key"))
    let applied = await call("update", ["oobCode": code])
    #expect(applied.status == 200)
    #expect(applied.json["emailVerified"] as? Bool == true)
    #expect(applied.json["email"] as? String == "ann@example.com")
    #expect(try await lookup(idToken)["emailVerified"] as? Bool == true)
    #expect(await call("update", ["oobCode": code]).firebaseMessage == "INVALID_OOB_CODE")
    #expect(await oobCodes().isEmpty)
  }

  @Test func passwordResetCodesAreCheckedUsedOnceAndExpire() async throws {
    _ = try await signUp("ann@example.com")
    _ = await call("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "nobody@example.com"])
    #expect(await oobCodes().isEmpty)  // no account: nothing "sent", same answer
    _ = await call("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "ANN@example.com"])
    let listed = await oobCodes(base: "http://localhost:4321")
    let code = try #require(listed.first?["oobCode"] as? String)
    #expect(
      (listed.first?["oobLink"] as? String)?.hasPrefix(
        "http://localhost:4321/emulator/action?mode=resetPassword") == true)

    #expect(await call("resetPassword", [:]).firebaseMessage == "MISSING_OOB_CODE")
    #expect(await call("resetPassword", ["oobCode": "nope"]).firebaseMessage == "INVALID_OOB_CODE")
    let verified = await call("resetPassword", ["oobCode": code])
    #expect(verified.json["email"] as? String == "ann@example.com")
    #expect(verified.json["requestType"] as? String == "PASSWORD_RESET")
    let weak = await call("resetPassword", ["oobCode": code, "newPassword": "1"])
    #expect(weak.firebaseMessage?.hasPrefix("WEAK_PASSWORD") == true)
    // A reset code does not verify an email.
    #expect(await call("update", ["oobCode": code]).firebaseMessage == "INVALID_OOB_CODE")

    clock.advance(by: UserStore.outOfBandCodeLifetime)
    let expired = await call("resetPassword", ["oobCode": code, "newPassword": "changed1"])
    #expect(expired.firebaseMessage == "EXPIRED_OOB_CODE")
    let old = await call("signInWithPassword", ["email": "ann@example.com", "password": "secret1"])
    #expect(old.status == 200)
  }

  @Test func deletingTheListingClearsIt() async throws {
    let idToken = try await signUp("ann@example.com")["idToken"] as Any
    _ = await call("sendOobCode", ["requestType": "VERIFY_EMAIL", "idToken": idToken])
    #expect(await oobCodes().count == 1)
    let deleted = await emulator.handle(
      HTTPRequest(
        method: .delete,
        url: URL(string: "http://127.0.0.1:9099/emulator/v1/projects/demo-project/oobCodes")!))
    #expect(deleted.status == 200)
    #expect(await oobCodes().isEmpty)
  }

  @Test func theLegacyResetPasswordNameIsServed() async throws {
    let response = await emulator.handle(
      HTTPRequest(
        method: .post,
        url: URL(
          string:
            "http://127.0.0.1:9099/www.googleapis.com/identitytoolkit/v3/relyingparty/resetPassword?key=k"
        )!, headerFields: ["Content-Type": "application/json"],
        body: jsonData(["oobCode": "unknown"])))
    #expect(response.firebaseMessage == "INVALID_OOB_CODE")
  }

  @Test func oobCodeAndNewPasswordMustBeStrings() async throws {
    let response = await call("resetPassword", ["oobCode": 12])
    #expect(response.firebaseMessage?.contains("oobCode") == true)
  }
}

/// The issue's end-to-end flow over the emulator's loopback HTTP server with raw
/// requests: sign up, request a reset, read the code from the listing, complete the
/// reset, sign in with the new password; the old one fails.
@Suite("Emulator: password reset over loopback HTTP", .timeLimit(.minutes(2)))
struct PasswordResetOverHTTPTests {
  @Test func resetCompletedWithTheListedCodeLetsTheNewPasswordSignIn() async throws {
    let emulator = BackendEmulator(store: try makeStore())
    let server = EmulatorServer(emulator: emulator, host: "127.0.0.1", port: 0)
    let port = try server.start()
    do {
      func post(_ operation: String, _ body: String) async throws -> RawResponse {
        let target = "/identitytoolkit.googleapis.com/v1/accounts:\(operation)?key=k"
        return try await rawExchange(
          port: port,
          "POST \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n\r\n\(body)")
      }
      let signUp = try await post("signUp", #"{"email":"ann@example.com","password":"secret1"}"#)
      #expect(signUp.status == 200)
      let sent = try await post(
        "sendOobCode", #"{"requestType":"PASSWORD_RESET","email":"ann@example.com"}"#)
      #expect(sent.status == 200)
      let listing = try await rawExchange(
        port: port,
        "GET /emulator/v1/projects/demo-project/oobCodes HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
          + "Connection: close\r\n\r\n")
      #expect(listing.status == 200)
      let entry = try #require((listing.json["oobCodes"] as? [[String: Any]])?.first)
      #expect(entry["email"] as? String == "ann@example.com")
      #expect(entry["requestType"] as? String == "PASSWORD_RESET")
      #expect(
        (entry["oobLink"] as? String)?.hasPrefix(
          "http://127.0.0.1:\(port)/emulator/action?mode=resetPassword&lang=en&oobCode=") == true)
      let code = try #require(entry["oobCode"] as? String)
      let reset = try await post(
        "resetPassword", #"{"oobCode":"\#(code)","newPassword":"changed1"}"#)
      #expect(reset.status == 200)
      #expect(reset.json["requestType"] as? String == "PASSWORD_RESET")
      let new = try await post(
        "signInWithPassword", #"{"email":"ann@example.com","password":"changed1"}"#)
      #expect(new.status == 200)
      #expect(new.json["localId"] as? String == signUp.json["localId"] as? String)
      let old = try await post(
        "signInWithPassword", #"{"email":"ann@example.com","password":"secret1"}"#)
      #expect(old.status == 400)
      #expect(old.bodyText.contains("INVALID_LOGIN_CREDENTIALS"))
    } catch {
      await stopOffPool(server)
      throw error
    }
    await stopOffPool(server)
  }
}

/// Account management over the NCMB API: `mailAddress` changes, `mailAddressConfirm`, and
/// a reset requested through NCMB finished with the listed code.
@Suite("Emulator: NCMB account management", .timeLimit(.minutes(1)))
struct NCMBAccountManagementTests {
  let store: UserStore
  let emulator: BackendEmulator
  let requests = NCMBRequests()
  let firebase = FirebaseRequests()

  init() throws {
    store = try makeStore()
    emulator = BackendEmulator(store: store)
  }

  private func signUp(_ userName: String, mail: String) async throws -> (String, String) {
    let created = await emulator.handle(
      requests.request(
        .post, "/2013-09-01/users",
        body: ["userName": userName, "password": "secret1", "mailAddress": mail]))
    return (
      try #require(created.json["objectId"] as? String),
      try #require(created.json["sessionToken"] as? String)
    )
  }

  @Test func theOwnerChangesTheMailAddressAndTakenOnesAreRefused() async throws {
    _ = try await signUp("bob", mail: "bob@example.com")
    let (id, token) = try await signUp("ann", mail: "ann@example.com")
    try store.setEmailVerified(userID: id, true)
    let taken = await emulator.handle(
      requests.request(
        .put, "/2013-09-01/users/\(id)", body: ["mailAddress": "BOB@example.com"],
        sessionToken: token))
    #expect(taken.status == 409 && taken.ncmbCode == "E409001")
    let malformed = await emulator.handle(
      requests.request(
        .put, "/2013-09-01/users/\(id)", body: ["mailAddress": "nope"], sessionToken: token))
    #expect(malformed.ncmbCode == "E400004")
    #expect(try store.user(id: id)?.email == "ann@example.com")
    let changed = await emulator.handle(
      requests.request(
        .put, "/2013-09-01/users/\(id)", body: ["mailAddress": "Ann.New@example.com"],
        sessionToken: token))
    #expect(changed.status == 200)
    let fetched = await emulator.handle(requests.request(.get, "/2013-09-01/users/\(id)"))
    #expect(fetched.json["mailAddress"] as? String == "ann.new@example.com")
    #expect(fetched.json["mailAddressConfirm"] as? Bool == false)
  }

  @Test func mailAddressConfirmReflectsVerification() async throws {
    let (id, _) = try await signUp("ann", mail: "ann@example.com")
    var fetched = await emulator.handle(requests.request(.get, "/2013-09-01/users/\(id)"))
    #expect(fetched.json["mailAddressConfirm"] as? Bool == false)
    let code = try store.issueOutOfBandCode(.verifyEmail, userID: id)
    try store.applyEmailVerification(code: code.code)
    fetched = await emulator.handle(requests.request(.get, "/2013-09-01/users/\(id)"))
    #expect(fetched.json["mailAddressConfirm"] as? Bool == true)
    let login = await emulator.handle(
      requests.request(
        .post, "/2013-09-01/login", body: ["userName": "ann", "password": "secret1"]))
    #expect(login.json["mailAddressConfirm"] as? Bool == true)
  }

  @Test func aResetRequestedThroughNCMBIsListedAndCompletes() async throws {
    _ = try await signUp("ann", mail: "ann@example.com")
    let requested = await emulator.handle(
      requests.request(
        .post, "/2013-09-01/requestPasswordReset", body: ["mailAddress": "ann@example.com"]))
    #expect(requested.status == 201)
    let codes = try store.outOfBandCodes(email: "ann@example.com")
    let code = try #require(codes.first)
    #expect(code.requestType == .passwordReset)
    let reset = await emulator.handle(
      firebase.accounts("resetPassword", ["oobCode": code.code, "newPassword": "changed1"]))
    #expect(reset.status == 200)
    let login = await emulator.handle(
      requests.request(
        .post, "/2013-09-01/login", body: ["userName": "ann", "password": "changed1"]))
    #expect(login.status == 200)
  }
}

/// `accounts:signUp` with an `idToken` links a password to a guest, as the JS SDK sends it.
@Suite("Emulator: linking through accounts:signUp", .timeLimit(.minutes(1)))
struct FirebaseSignUpLinkingTests {
  @Test func aGuestIsLinkedBySignUpWithItsIDToken() async throws {
    let store = try makeStore()
    let emulator = BackendEmulator(store: store)
    let firebase = FirebaseRequests()
    let guest = await emulator.handle(firebase.accounts("signUp", [:])).json
    let guestToken = try #require(guest["idToken"] as? String)
    let weak = await emulator.handle(
      firebase.accounts(
        "signUp", ["idToken": guestToken, "email": "g@example.com", "password": "1"]))
    #expect(weak.firebaseMessage?.hasPrefix("WEAK_PASSWORD") == true)
    let linked = await emulator.handle(
      firebase.accounts(
        "signUp", ["idToken": guestToken, "email": "G@example.com", "password": "secret1"]))
    #expect(linked.status == 200)
    #expect(linked.json["localId"] as? String == guest["localId"] as? String)
    #expect(linked.json["email"] as? String == "g@example.com")
    let user = try #require(try store.user(email: "g@example.com"))
    #expect(!user.isAnonymous && user.providers == ["password"])
    let again = await emulator.handle(
      firebase.accounts(
        "signUp",
        [
          "idToken": try #require(linked.json["idToken"] as? String), "email": "h@example.com",
          "password": "secret1",
        ]))
    #expect(again.firebaseMessage?.hasPrefix("OPERATION_NOT_ALLOWED") == true)
  }
}

/// Following an `oobLink` (`GET /emulator/action`) finishes the flow, as with curl.
@Suite("Emulator: following the oobLink", .timeLimit(.minutes(1)))
struct OutOfBandLinkTests {
  @Test func theListedLinksVerifyAndResetWhenFollowed() async throws {
    let store = try makeStore()
    let emulator = BackendEmulator(store: store)
    let firebase = FirebaseRequests()
    let signedUp = await emulator.handle(
      firebase.accounts("signUp", ["email": "ann@example.com", "password": "secret1"]))
    _ = await emulator.handle(
      firebase.accounts(
        "sendOobCode",
        ["requestType": "VERIFY_EMAIL", "idToken": signedUp.json["idToken"] as Any]))
    _ = await emulator.handle(
      firebase.accounts(
        "sendOobCode", ["requestType": "PASSWORD_RESET", "email": "ann@example.com"]))
    let listing = await emulator.handle(
      HTTPRequest(
        method: .get,
        url: URL(string: "http://127.0.0.1:9099/emulator/v1/projects/demo-project/oobCodes")!))
    let links = (listing.json["oobCodes"] as? [[String: Any]] ?? []).compactMap {
      $0["oobLink"] as? String
    }
    #expect(links.count == 2)
    for link in links {
      let target = link.contains("mode=resetPassword") ? link + "&newPassword=changed1" : link
      let followed = await emulator.handle(HTTPRequest(method: .get, url: URL(string: target)!))
      #expect(followed.status == 200, "\(followed.firebaseMessage ?? "")")
    }
    let user = try #require(try store.user(email: "ann@example.com"))
    #expect(user.emailVerified)
    #expect(try store.verifyPassword("changed1", userID: user.id))
    let again = await emulator.handle(HTTPRequest(method: .get, url: URL(string: links[0])!))
    #expect(again.firebaseMessage == "INVALID_OOB_CODE")
    let unknownMode = await emulator.handle(
      HTTPRequest(
        method: .get, url: URL(string: "http://127.0.0.1:9099/emulator/action?mode=x&oobCode=y")!))
    #expect(unknownMode.firebaseMessage?.hasPrefix("INVALID_REQ_TYPE") == true)
  }
}
