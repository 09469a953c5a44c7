import AccountDatabase
import BackendEmulator
import BackendHTTP
import FakeUserBackend
import Foundation
import Testing
import UserBackendKit

/// The layer an identifier case runs on: the fake, or an adapter talking to the emulator
/// in process.
enum IdentifierLayer: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case fake
  case emulatorFirebase
  case emulatorNCMB

  var testDescription: String { rawValue }

  /// A backend of this kind over `rig`'s store; each call is a fresh app instance.
  func backend(_ rig: EmulatorRig) throws -> any UserBackend {
    switch self {
    case .fake: FakeUserBackend(store: rig.store, sessionStore: InMemorySessionStore())
    case .emulatorFirebase: try rig.firebase()
    case .emulatorNCMB: try rig.ncmb()
    }
  }

  var hasUserNames: Bool { self != .emulatorFirebase }
  var hasPhoneSignIn: Bool { self != .emulatorNCMB }
}

/// Two spellings of one identifier: the account created with the first is the one found
/// with the second, and creating the second is `accountAlreadyExists`.
struct SameIdentifier: Sendable, CustomTestStringConvertible {
  var name: String
  var first: PasswordCredential.Identifier
  var second: PasswordCredential.Identifier
  var testDescription: String { name }
}

/// An identifier refused everywhere with the same portable error.
struct RefusedIdentifier: Sendable, CustomTestStringConvertible {
  var name: String
  var identifier: PasswordCredential.Identifier
  var expected: UserBackendError.Code
  var testDescription: String { name }
}

@Suite("One canonical form of each identifier on every layer", .timeLimit(.minutes(2)))
struct IdentifierCanonicalFormTests {
  static let sameIdentifiers: [SameIdentifier] = [
    SameIdentifier(
      name: "email NFC / NFD", first: .email("\u{E9}mile@example.com"),
      second: .email("e\u{301}mile@example.com")),
    SameIdentifier(
      name: "email IDNA U-label / A-label", first: .email("user@b\u{FC}cher.example"),
      second: .email("user@xn--bcher-kva.example")),
    SameIdentifier(
      name: "email A-label / upper-case U-label", first: .email("user@xn--bcher-kva.example"),
      second: .email(" USER@B\u{DC}CHER.example ")),
    SameIdentifier(
      name: "email NFD U-label / A-label", first: .email("user@bu\u{308}cher.example"),
      second: .email("user@xn--bcher-kva.example")),
    SameIdentifier(
      name: "user name NFC / NFD", first: .username("\u{E9}mile"),
      second: .username("e\u{301}mile")),
  ]

  static let refused: [RefusedIdentifier] = [
    RefusedIdentifier(
      name: "email NUL", identifier: .email("a\u{0}@example.com"), expected: .invalidEmail),
    RefusedIdentifier(
      name: "email RLO", identifier: .email("a\u{202E}@example.com"), expected: .invalidEmail),
    RefusedIdentifier(
      name: "email bad IDNA", identifier: .email("user@\u{2615}\u{0301}.example"),
      expected: .invalidEmail),
    RefusedIdentifier(
      name: "user name NUL", identifier: .username("a\u{0}b"),
      expected: .invalidInput(field: "username", reason: "")),
    RefusedIdentifier(
      name: "user name ZWSP", identifier: .username("a\u{200B}b"),
      expected: .invalidInput(field: "username", reason: "")),
    RefusedIdentifier(
      name: "user name BEL", identifier: .username("a\u{7}b"),
      expected: .invalidInput(field: "username", reason: "")),
  ]

  @Test(arguments: IdentifierLayer.allCases, sameIdentifiers)
  func twoSpellingsAreOneAccount(layer: IdentifierLayer, pair: SameIdentifier) async throws {
    if case .username = pair.first, !layer.hasUserNames { return }
    let rig = try EmulatorRig(.inProcess)
    let created = try await layer.backend(rig).signUp(
      PasswordCredential(pair.first, password: "secret1"))
    let signedIn = try await layer.backend(rig).signIn(
      PasswordCredential(pair.second, password: "secret1"))
    #expect(signedIn.user.id == created.user.id)
    let again = await errorCode {
      try await layer.backend(rig).signUp(PasswordCredential(pair.second, password: "secret1"))
    }
    #expect(again == .accountAlreadyExists)
    #expect(try rig.store.userCount() == 1)
  }

  @Test(arguments: IdentifierLayer.allCases, refused)
  func aRefusedIdentifierIsRefusedEverywhere(layer: IdentifierLayer, input: RefusedIdentifier)
    async throws
  {
    if case .username = input.identifier, !layer.hasUserNames { return }
    let rig = try EmulatorRig(.inProcess)
    let credential = PasswordCredential(input.identifier, password: "secret1")
    let signUp = await errorCode { try await layer.backend(rig).signUp(credential) }
    let signIn = await errorCode { try await layer.backend(rig).signIn(credential) }
    for code in [signUp, signIn] {
      #expect(Self.sameKind(code, input.expected), "\(String(describing: code))")
    }
    #expect(try rig.store.userCount() == 0)
  }

  static let refusedPhoneNumbers = [
    "+8109012345678",  // Japan's trunk 0 kept after +81
    "+4407911123456",  // the UK's trunk 0 kept after +44
    "+330612345678",  // France's
    "+49030123456",  // Germany's
    "+1212555012",  // +1 needs 10 digits after the country code
    "+121255501234",
    "+10125550123",  // a North American area code never starts with 0 or 1
    "+33612345",  // France: 9 digits after +33
    "+81\u{0}9012345678",
  ]

  @Test(arguments: IdentifierLayer.allCases.filter(\.hasPhoneSignIn), refusedPhoneNumbers)
  func aRefusedPhoneNumberIsRefusedEverywhere(layer: IdentifierLayer, number: String)
    async throws
  {
    let rig = try EmulatorRig(.inProcess)
    let code = await errorCode {
      try await layer.backend(rig).startPhoneVerification(phoneNumber: number)
    }
    #expect(code.map { Self.sameKind($0, .invalidInput(field: "phoneNumber", reason: "")) } == true)
    #expect(try rig.store.pendingPhoneVerifications().isEmpty)
  }

  @Test(
    arguments: IdentifierLayer.allCases.filter(\.hasPhoneSignIn),
    ["+819012345678", " +819012345678 ", "+390612345678", "+15551234567", "+442079460018"])
  func aValidPhoneNumberStartsAVerification(layer: IdentifierLayer, number: String) async throws {
    let rig = try EmulatorRig(.inProcess)
    _ = try await layer.backend(rig).startPhoneVerification(phoneNumber: number)
    let pending = try rig.store.pendingPhoneVerifications()
    #expect(pending.map(\.phoneNumber) == [number.trimmingCharacters(in: .whitespaces)])
  }

  /// `true` when both are the same case (and, for `invalidInput`, the same field).
  static func sameKind(_ actual: UserBackendError.Code?, _ expected: UserBackendError.Code) -> Bool
  {
    switch (actual, expected) {
    case (.invalidInput(let field, _)?, .invalidInput(let expectedField, _)):
      return field == expectedField
    case (let actual?, _): return actual == expected
    case (nil, _): return false
    }
  }
}

/// The portable error code `body` threw, or `nil` when it succeeded.
func errorCode(_ body: () async throws -> some Any) async -> UserBackendError.Code? {
  do {
    _ = try await body()
    return nil
  } catch let error as UserBackendError {
    return error.code
  } catch {
    return .server(status: 0, code: "not a UserBackendError", message: "\(error)")
  }
}

/// The emulator's own checks, without a client in front: raw requests.
@Suite("Emulator: canonical identifiers on the wire", .timeLimit(.minutes(1)))
struct EmulatorCanonicalWireTests {
  let store: UserStore
  let firebase: FirebaseAuthHandler
  let ncmb: NCMBHandler
  let firebaseRequests = FirebaseRequests()
  let ncmbRequests = NCMBRequests()

  init() throws {
    store = try makeStore()
    firebase = FirebaseAuthHandler(store: store, projectID: "demo-test")
    ncmb = NCMBHandler(store: store)
  }

  @Test func firebaseEmailIDNAForms() async throws {
    let created = await firebase.handle(
      firebaseRequests.accounts(
        "signUp", ["email": "user@b\u{FC}cher.example", "password": "secret1"]))
    #expect(created.json["email"] as? String == "user@xn--bcher-kva.example")
    let signIn = await firebase.handle(
      firebaseRequests.accounts(
        "signInWithPassword", ["email": "USER@xn--bcher-kva.example", "password": "secret1"]))
    #expect(signIn.json["localId"] as? String == created.json["localId"] as? String)
    let again = await firebase.handle(
      firebaseRequests.accounts(
        "signUp", ["email": "user@xn--bcher-kva.example", "password": "secret1"]))
    #expect(again.firebaseMessage == "EMAIL_EXISTS")
    // NCMB's mail-address login needs a confirmed address.
    try store.setEmailVerified(userID: try #require(created.json["localId"] as? String), true)
    let ncmbLogin = await ncmb.handle(
      ncmbRequests.request(
        .post, "/2013-09-01/login",
        body: ["mailAddress": "user@bu\u{308}cher.example", "password": "secret1"]))
    #expect(ncmbLogin.json["objectId"] as? String == created.json["localId"] as? String)
  }

  @Test func ncmbUserNameNFCAndNFD() async throws {
    let created = await ncmb.handle(
      ncmbRequests.request(
        .post, "/2013-09-01/users", body: ["userName": "e\u{301}mile", "password": "secret1"]))
    #expect(created.status == 201)
    #expect(created.json["userName"] as? String == "\u{E9}mile")
    let login = await ncmb.handle(
      ncmbRequests.request(
        .post, "/2013-09-01/login", body: ["userName": "\u{E9}mile", "password": "secret1"]))
    #expect(login.json["objectId"] as? String == created.json["objectId"] as? String)
    let again = await ncmb.handle(
      ncmbRequests.request(
        .post, "/2013-09-01/users", body: ["userName": "\u{E9}mile", "password": "secret1"]))
    #expect(again.ncmbCode == "E409001")
  }

  @Test(arguments: ["+8109012345678", "+1212555012", "+4407911123456"])
  func firebaseRefusesAPhoneNumberWithATrunkPrefixOrBadLength(number: String) async throws {
    let answer = await firebase.handle(
      firebaseRequests.accounts("sendVerificationCode", ["phoneNumber": number]))
    #expect(answer.firebaseMessage?.hasPrefix("INVALID_PHONE_NUMBER") == true)
    #expect(try store.pendingPhoneVerifications().isEmpty)
  }

  @Test func theStoreRefusesAPhoneNumberWithATrunkPrefix() throws {
    #expect(throws: UserBackendError.self) {
      try store.createUser(NewUser(phoneNumber: "+8109012345678", provider: "phone"))
    }
    #expect(throws: UserBackendError.self) {
      try store.startPhoneVerification(phoneNumber: "+8109012345678")
    }
    #expect(try store.user(phoneNumber: "+8109012345678") == nil)
  }
}
