import AccountDatabase
import BackendEmulator
import Foundation
import Testing
import UserBackendKit

/// One host-name rule for the domain of every email, ASCII or not, on every layer: the
/// library check, the fake's store, both adapters (before any request) and the emulator's
/// Firebase and NCMB handlers.
@Suite("Email domains: one host-name rule on every layer", .timeLimit(.minutes(2)))
struct EmailDomainRuleTests {
  static let label63 = String(repeating: "a", count: 63)

  /// Domains that are not host names, ASCII and internationalized alike.
  static let refusedEmails = [
    "a@-example.com", "a@example-.com", "a@example..com", "a@.example.com", "a@exa_mple.com",
    "a@example.com.", "a@exa mple.com", "a@exa!mple.com", "a@\(label63)a.example",
    "a@" + Array(repeating: "abcdefghi", count: 26).joined(separator: "."),
    "a@-b\u{FC}cher.example", "a@b\u{FC}cher..example", "a@b\u{FC}cher_x.example",
  ]

  /// Host names: a 63-character label, a single label, digits, inner hyphens, IDNA.
  static let acceptedEmails = [
    "a@\(label63).example", "a@localhost", "a@1-2.example", "a@x--y.example",
    "a@B\u{FC}cher.Example", "a@xn--bcher-kva.example",
  ]

  @Test("the library refuses a domain that is not a host name", arguments: refusedEmails)
  func libraryRefuses(_ email: String) {
    let code = Result { () throws(UserBackendError) in
      try CredentialValidation.validateEmail(email)
    }
    #expect(throws: UserBackendError.self) { try code.get() }
    if case .failure(let error) = code {
      #expect(error.code == .invalidEmail)
      #expect(error.description.contains("email"))
    }
    #expect(IdentifierCanonicalization.asciiDomain(String(email.dropFirst(2))) == nil)
  }

  @Test("the library accepts host names", arguments: acceptedEmails)
  func libraryAccepts(_ email: String) throws {
    let canonical = try CredentialValidation.validateEmail(email)
    #expect(canonical.hasPrefix("a@"))
  }

  @Test(
    "every backend refuses the address on sign-up, sign-in and reset",
    arguments: IdentifierLayer.allCases, refusedEmails)
  func everyLayerRefuses(_ layer: IdentifierLayer, _ email: String) async throws {
    let rig = try EmulatorRig(.inProcess)
    let credential = PasswordCredential(.email(email), password: "secret1")
    let signUp = await errorCode { try await layer.backend(rig).signUp(credential) }
    let signIn = await errorCode { try await layer.backend(rig).signIn(credential) }
    let reset = await errorCode {
      try await layer.backend(rig).sendPasswordReset(email: email)
    }
    #expect(signUp == .invalidEmail)
    #expect(signIn == .invalidEmail)
    #expect(reset == .invalidEmail)
    #expect(try rig.store.userCount() == 0)
  }

  @Test("the account store refuses the address", arguments: refusedEmails)
  func storeRefuses(_ email: String) async throws {
    let store = try makeStore()
    let code = await errorCode {
      try store.createUser(NewUser(email: email, password: "secret1"))
    }
    #expect(code == .invalidEmail)
  }

  @Test("the emulator's handlers refuse the address on the wire", arguments: refusedEmails)
  func emulatorRefusesOnTheWire(_ email: String) async throws {
    let store = try makeStore()
    let firebase = FirebaseAuthHandler(store: store, projectID: "demo-test")
    let ncmb = NCMBHandler(store: store)
    let signUp = await firebase.handle(
      FirebaseRequests().accounts("signUp", ["email": email, "password": "secret1"]))
    #expect(signUp.firebaseMessage == "INVALID_EMAIL")
    let created = await ncmb.handle(
      NCMBRequests().request(
        .post, "/2013-09-01/users",
        body: ["userName": "ada", "mailAddress": email, "password": "secret1"]))
    #expect(created.status == 400)
    // E400004 (invalid format); E400009 (too long) for the 259-character domain, whose
    // address is also past the 254-character limit.
    #expect(["E400004", "E400009"].contains(created.json["code"] as? String))
    #expect(try store.userCount() == 0)
  }
}
