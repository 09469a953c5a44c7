import Foundation
import Testing
import UserBackendContracts
import UserBackendKit

/// Self-tests of the account-management (issue 20) and document (issue 13) contracts and
/// expectation kinds: each new contract passes on the correct memory backend, and one
/// planted bug per new expectation kind makes a bundled contract fail at the step carrying
/// it, with a message naming the expectation and what differed.
@Suite(.timeLimit(.minutes(2))) struct AccountAndDocumentFlawTests {
  static let cases: [FlawCase] = [
    // error sessionExpired on a second device: the server must stop honouring the old
    // credential (a server that revokes nothing passes every check of the first device)
    FlawCase(
      flaw: .signOutRevokesNothing, contract: "signed-out-token-refused-by-server", step: 5,
      mentions: ["error sessionExpired", "got a token ("]),
    FlawCase(
      flaw: .passwordChangeRevokesNothing, contract: "password-change-signs-out-other-devices",
      step: 5, mentions: ["error sessionExpired", "got a token ("]),
    FlawCase(
      flaw: .deletionRevokesNothing, contract: "deleted-account-other-device-signed-out",
      step: 5, mentions: ["error sessionExpired", "got a token ("]),
    // user: displayName after reload (the profile must be stored, not only answered)
    FlawCase(
      flaw: .profileNotStored, contract: "update-profile-round-trip", step: 3,
      mentions: ["displayName: \"Ada Lovelace\"", "displayName \"Ada Lovelace\" but got none"]),
    // user: photoURL "" means none
    FlawCase(
      flaw: .photoNeverRemoved, contract: "update-profile-round-trip", step: 8,
      mentions: ["photoURL: \"\"", "no photoURL but got \"https://example.com/photos/ada.png\""]),
    // user: emailVerified
    FlawCase(
      flaw: .emailNeverVerified, contract: "email-verification-with-code", step: 8,
      mentions: ["emailVerified: true", "emailVerified true but got false"]),
    // user: createdAt presence
    FlawCase(
      flaw: .noCreationTime, contract: "email-verification-with-code", step: 3,
      mentions: ["createdAt known", "createdAt to be known but got none"]),
    // error invalidInput(code): the code from the environment is checked by the backend
    FlawCase(
      flaw: .anyCodeAccepted, contract: "password-reset-completed-with-code", step: 4,
      mentions: ["error invalidInput(field: code)", "got success"]),
    FlawCase(
      flaw: .oldPasswordStillWorks, contract: "update-password-then-sign-in", step: 7,
      mentions: ["error invalidCredentials", "got session for user("]),
    // error requiresRecentLogin
    FlawCase(
      flaw: .noRecentLoginCheck, contract: "requires-recent-login-then-reauthenticate", step: 3,
      mentions: ["error requiresRecentLogin", "got success"]),
    // error userMismatch
    FlawCase(
      flaw: .reauthenticateAcceptsOtherAccount,
      contract: "reauthenticate-other-account-is-user-mismatch", step: 5,
      mentions: ["error userMismatch", "got session for user("]),
    // user: sameUserAs after linkPassword
    FlawCase(
      flaw: .linkCreatesNewUser, contract: "guest-upgrade-keeps-id", step: 5,
      mentions: ["same user as step \"guest\"", "the user of step \"guest\""]),
    // error permissionDenied: the owner rule
    FlawCase(
      flaw: .documentsIgnoreOwner, contract: "other-users-document-is-permission-denied",
      step: 5, mentions: ["error permissionDenied", "got document(userID: \"user-"]),
    // outcomes created / existed
    FlawCase(
      flaw: .createOverwrites, contract: "concurrent-ensure-document-creates-one", step: 2,
      mentions: ["outcomes {created: 1, existed: 1}", "outcomes {created: 2}"]),
    // document fields: typed values, exactly
    FlawCase(
      flaw: .integersAsDoubles, contract: "document-fields-round-trip", step: 2,
      mentions: [
        #"field "big" {"integer":"9007199254740993"} but got {"double":9007199254740992}"#
      ]),
    FlawCase(
      flaw: .timestampsToSeconds, contract: "document-fields-round-trip", step: 2,
      mentions: [
        #"field "when" {"timestamp":"2026-03-04T05:06:07.890000Z"} but got "#
          + #"{"timestamp":"2026-03-04T05:06:07.000000Z"}"#
      ]),
    // document fields: a missing one
    FlawCase(
      flaw: .updateReplaces, contract: "document-update-merges-and-removes", step: 4,
      mentions: [#"field "keep" {"string":"kept"} but it is missing"#]),
    // error notSignedIn vs document nil
    FlawCase(
      flaw: .documentsWithoutSignIn, contract: "document-requires-sign-in", step: 1,
      mentions: ["error notSignedIn", "no document (nil)"]),
    // document sameUserAs
    FlawCase(
      flaw: .documentWrongOwner, contract: "first-sign-in-creates-document-once", step: 3,
      mentions: ["of the user of step \"new\"", "but got userID \"someone-else\""]),
  ]

  static let newContracts = [
    "update-profile-round-trip", "update-password-then-sign-in",
    "update-email-visible-after-reload", "email-verification-with-code",
    "password-reset-completed-with-code", "requires-recent-login-then-reauthenticate",
    "reauthenticate-other-account-is-user-mismatch", "guest-upgrade-keeps-id",
    "sensitive-change-requires-sign-in", "first-sign-in-creates-document-once",
    "document-fields-round-trip", "document-update-merges-and-removes",
    "other-users-document-is-permission-denied", "document-requires-sign-in",
    "concurrent-ensure-document-creates-one", "account-deletion-removes-document",
    "get-absent-document-is-nil", "signed-out-token-refused-by-server",
    "password-change-signs-out-other-devices", "deleted-account-other-device-signed-out",
  ]

  @Test(arguments: newContracts)
  func passesOnTheCorrectBackend(_ name: String) async throws {
    let result = await ContractRunner.run(try bundledContract(name), on: MemoryHarness())
    #expect(result.outcome == .passed, "\(result.outcome)")
  }

  @Test(arguments: cases)
  func theFlawFailsTheContractNamingTheExpectation(_ flawCase: FlawCase) async throws {
    let contract = try bundledContract(flawCase.contract)
    let result = await ContractRunner.run(contract, on: MemoryHarness(flaws: [flawCase.flaw]))
    guard case .failed(let failure) = result.outcome else {
      Issue.record("\(flawCase.flaw) was not caught by \(flawCase.contract): \(result.outcome)")
      return
    }
    #expect(failure.step == flawCase.step, "\(failure)")
    for text in flawCase.mentions {
      #expect(failure.description.contains(text), "\(failure) should mention \(text)")
    }
  }

  /// An environment that cannot read out-of-band codes skips the contract, saying why.
  @Test(arguments: ["email-verification-with-code", "password-reset-completed-with-code"])
  func withoutCodesTheContractIsSkipped(_ name: String) async throws {
    let result = await ContractRunner.run(
      try bundledContract(name), on: MemoryHarness(seesCodes: false))
    guard case .skipped(let reason) = result.outcome else {
      Issue.record("expected a skip, got \(result.outcome)")
      return
    }
    #expect(reason.contains("out-of-band"), "\(reason)")
    // The environment's skip, not the backend's: the skip matrix does not judge it.
    #expect(result.skippedByEnvironment)
    #expect(SkipMatrix(backends: [:]).violation(result) == nil)
  }

  /// Neither the out-of-band code nor a password reaches a failure report.
  @Test func codesAndPasswordsAreRedacted() async throws {
    let contract = try ContractLoader.decode(
      Data(
        #"""
        {"name": "leak", "description": "d", "requires": ["emailPassword"],
         "variables": {"email": "email"},
         "steps": [
          {"op": "signUp", "input": {"email": "{{email}}", "password": "correct-horse-7"}},
          {"op": "signOut"},
          {"op": "sendPasswordReset", "input": {"email": "{{email}}"}},
          {"op": "confirmPasswordReset",
           "input": {"email": "{{email}}", "newPassword": "battery-staple-8"},
           "expect": {"error": "weakPassword"}}]}
        """#.utf8), path: "leak")
    let result = await ContractRunner.run(contract, on: LeakyCodeHarness())
    guard case .failed(let failure) = result.outcome else {
      Issue.record("expected a failure, got \(result.outcome)")
      return
    }
    #expect(failure.description.contains("<redacted>"), "\(failure)")
    #expect(!failure.description.contains("oob-"), "a code reached the report: \(failure)")
    #expect(!failure.description.contains("battery-staple-8"), "\(failure)")
  }
}

/// A memory harness whose backend's password-reset error quotes the code and the password.
private struct LeakyCodeHarness: ContractHarness {
  let name = "leaky"
  func makeEnvironment(for contract: Contract, variables: [String: String]) async throws
    -> any ContractEnvironment
  {
    Leaky(base: try await MemoryHarness().makeEnvironment(for: contract, variables: variables))
  }
  struct Leaky: ContractEnvironment {
    let base: any ContractEnvironment
    var capabilities: Set<Capability> { base.capabilities }
    var clock: ManualClock? { base.clock }
    var variables: [String: String] { base.variables }
    func makeBackend(sessionStore: any SessionStore) async throws -> any UserBackend {
      LeakyBackend(base: try await base.makeBackend(sessionStore: sessionStore))
    }
    func phoneVerificationCode(for verificationID: String) async throws -> String? { nil }
    func outOfBandCode(email: String, kind: OutOfBandCodeKind) async throws -> String? {
      try await base.outOfBandCode(email: email, kind: kind)
    }
    func finish(passed: Bool) async throws {}
  }
  struct LeakyBackend: UserBackend {
    let base: any UserBackend
    var backendID: String { base.backendID }
    var capabilities: Set<Capability> { base.capabilities }
    func signUp(_ credential: PasswordCredential) async throws(UserBackendError) -> AuthSession {
      try await base.signUp(credential)
    }
    func signIn(_ credential: PasswordCredential) async throws(UserBackendError) -> AuthSession {
      try await base.signIn(credential)
    }
    func currentUser() async throws(UserBackendError) -> User? { try await base.currentUser() }
    func signOut() async throws(UserBackendError) { try await base.signOut() }
    func idToken(forceRefresh: Bool) async throws(UserBackendError) -> String {
      try await base.idToken(forceRefresh: forceRefresh)
    }
    func sendPasswordReset(email: String) async throws(UserBackendError) {
      try await base.sendPasswordReset(email: email)
    }
    func confirmPasswordReset(code: String, newPassword: String) async throws(UserBackendError) {
      throw UserBackendError(
        .server(status: 500, code: nil, message: nil),
        message: "rejected code \(code) with password \(newPassword)")
    }
  }
}
