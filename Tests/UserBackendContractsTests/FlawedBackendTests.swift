import Foundation
import Testing
import UserBackendContracts
import UserBackendKit

/// One deliberately flawed backend and the contract that must catch it.
struct FlawCase: Sendable, CustomTestStringConvertible {
  var flaw: MemoryServer.Flaw
  /// A bundled contract that must fail.
  var contract: String
  /// The step (1-based) that must report the failure.
  var step: Int
  /// Text the failure must contain: it names the expectation and what differed.
  var mentions: [String]

  var testDescription: String { "\(flaw) caught by \(contract)" }
}

/// Self-tests of the runner and the matcher: for every expectation kind of
/// Contracts/README.md, a memory backend with one planted bug must make a bundled
/// contract fail at the step carrying that expectation, with a message naming it. A
/// checker that silently ignored a field would let its flaw pass here.
@Suite(.timeLimit(.minutes(2))) struct FlawedBackendTests {
  /// How long a step waits for auth-state events here: only a flaw's missing event waits
  /// it out, so it can be long; 3 s failed a sound step under CI load (the events that do
  /// come were late), as ContractRunner.standardEventTimeout's comment says 5 s does.
  static let eventTimeout: Duration = .seconds(20)

  static let cases: [FlawCase] = [
    // outcomes
    FlawCase(
      flaw: .allowDuplicates, contract: "concurrent-duplicate-sign-up", step: 1,
      mentions: ["outcomes {accountAlreadyExists: 19, success: 1}", "outcomes {success: 20}"]),
    // user: email (literal, not canonicalised by the code under test)
    FlawCase(
      flaw: .wrongEmail, contract: "sign-up-then-current-user", step: 1,
      mentions: ["differs: email \"u-", "but got \"wrong@example.com\""]),
    FlawCase(
      flaw: .emailNotCanonical, contract: "sign-in-email-case-and-spaces", step: 3,
      mentions: ["differs: email \"u-", "but got \" U-"]),
    // user: username
    FlawCase(
      flaw: .wrongUsername, contract: "username-identifier", step: 1,
      mentions: ["differs: username \"user-", "but got \"someone-else\""]),
    // user: providers
    FlawCase(
      flaw: .wrongProviders, contract: "sign-in", step: 3,
      mentions: ["providers: [password]", "providers [password] but got []"]),
    // user: isAnonymous
    FlawCase(
      flaw: .anonymousNotFlagged, contract: "anonymous-sign-in", step: 1,
      mentions: ["isAnonymous: true", "isAnonymous true but got false"]),
    // user: isNewUser
    FlawCase(
      flaw: .alwaysNewUser, contract: "sign-in", step: 3,
      mentions: ["isNewUser: false", "isNewUser false but got true"]),
    // user: sameUserAs
    FlawCase(
      flaw: .newIDOnSignIn, contract: "sign-in", step: 3,
      mentions: ["same user as step \"new\"", "the user of step \"new\""]),
    // user: differentUserFrom
    FlawCase(
      flaw: .oneIDForEveryone, contract: "sign-in-as-b-replaces-a", step: 0,
      mentions: ["not the user of step", "a user other than step"]),
    // token: differentFrom
    FlawCase(
      flaw: .expiredTokenReturned, contract: "expired-token-refreshed-transparently", step: 4,
      mentions: ["different from step \"first\"", "the same token as step \"first\""]),
    // token: refreshRequests (a forced refresh that never asks the server; the same bytes
    // alone would not prove that, as a server may mint them again within one second)
    FlawCase(
      flaw: .staleForcedRefresh, contract: "id-token-forced-refresh", step: 4,
      mentions: [
        "after 1 token refresh request(s) on the wire", "0 token refresh request(s) on the wire",
      ]),
    // server: the server's own answer to a read past the backend
    FlawCase(
      flaw: .noServerOwnerRule, contract: "other-users-document-refused-by-server", step: 6,
      mentions: ["the server itself to refuse the read", "the server answered HTTP 200 (served)"]),
    // token: notOlderThan
    FlawCase(
      flaw: .backdatedRefresh, contract: "id-token-forced-refresh", step: 4,
      mentions: ["issued no earlier than step \"first\"'s", "before step \"first\"'s"]),
    // token: sameAs
    FlawCase(
      flaw: .newTokenOnEveryRead, contract: "id-token-forced-refresh", step: 3,
      mentions: ["same as step \"first\"", "a token different from step \"first\"'s"]),
    // token: sameUserAs reads the token's own subject
    FlawCase(
      flaw: .tokenForAnotherSubject, contract: "id-token-forced-refresh", step: 2,
      mentions: ["whose subject is the user of step \"new\"", "subject is \"someone-else\""]),
    // concurrent: refresh requests counted, and every result compared
    FlawCase(
      flaw: .noSingleFlight, contract: "concurrent-refresh-is-single-flight", step: 4,
      mentions: ["1 token refresh request(s) on the wire", "10 token refresh request(s)"]),
    // error code
    FlawCase(
      flaw: .weakPasswordAsInvalidInput, contract: "sign-up-weak-password", step: 1,
      mentions: ["error weakPassword(minimumLength: 6)", "error invalidInput"]),
    // error fields
    FlawCase(
      flaw: .wrongMinimumLength, contract: "sign-up-weak-password", step: 1,
      mentions: ["error weakPassword(minimumLength: 6)", "(minimumLength: 8)"]),
    FlawCase(
      flaw: .wrongInvalidInputField, contract: "sign-up-empty-email", step: 1,
      mentions: ["error invalidInput(field: email)", "(field: emailField)"]),
    // nil
    FlawCase(
      flaw: .signOutKeepsSession, contract: "sign-out-clears-current-user", step: 0,
      mentions: ["no user (nil)"]),
    // events: a missing one, and an extra one (exact match, not a prefix)
    FlawCase(
      flaw: .silentSignOut, contract: "auth-state-changes", step: 5,
      mentions: ["signedOut(nil)", "only 2 event(s) in time"]),
    FlawCase(
      flaw: .duplicateSignedInEvent, contract: "auth-state-changes", step: 5,
      mentions: ["signedOut(nil)", "1 more than expected", "signedIn(u-"]),
    // restart builds a new instance over the same stores
    FlawCase(
      flaw: .memoryOnlySession, contract: "current-user-survives-restart", step: 3,
      mentions: ["same user as step \"new\"", "no user (nil)"]),
    // secrets never reach the report
    FlawCase(
      flaw: .leakTokenInSignOutError, contract: "sign-out-twice-is-not-an-error", step: 2,
      mentions: ["rejected token <redacted>"]),
  ]

  @Test(arguments: cases)
  func theFlawFailsTheContractNamingTheExpectation(_ flawCase: FlawCase) async throws {
    let contract = try bundledContract(flawCase.contract)
    // Sanity: the contract passes on the same backend without the flaw.
    let sound = await ContractRunner.run(contract, on: MemoryHarness()).outcome
    #expect(sound == .passed, "\(sound)")
    let result = await ContractRunner.run(
      contract, on: MemoryHarness(flaws: [flawCase.flaw]), eventTimeout: Self.eventTimeout)
    guard case .failed(let failure) = result.outcome else {
      Issue.record("\(flawCase.flaw) was not caught by \(flawCase.contract): \(result.outcome)")
      return
    }
    if flawCase.step > 0 { #expect(failure.step == flawCase.step, "\(failure)") }
    for text in flawCase.mentions {
      #expect(failure.description.contains(text), "\(failure) should mention \(text)")
    }
    #expect(!failure.description.contains("eyJ"), "a token reached the report: \(failure)")
  }

  @Test func everyFlawHasACase() {
    let covered = Set((Self.cases + AccountAndDocumentFlawTests.cases).map(\.flaw))
    let missing = MemoryServer.Flaw.allCases.filter { !covered.contains($0) }
    #expect(missing.isEmpty, "flaws without a self-test: \(missing)")
  }

  /// A harness that cannot see the wire still catches a missing single flight: every
  /// concurrent result is compared, not the first.
  @Test func withoutRefreshCountsEveryConcurrentTokenIsCompared() async throws {
    let contract = try bundledContract("concurrent-refresh-is-single-flight")
    let result = await ContractRunner.run(
      contract, on: MemoryHarness(flaws: [.noSingleFlight], countsRefreshes: false))
    guard case .failed(let failure) = result.outcome else {
      Issue.record("expected a failure, got \(result.outcome)")
      return
    }
    #expect(failure.step == 5, "\(failure)")
    #expect(failure.actual.contains("of the 10 tokens of step \"refreshes\""), "\(failure)")
  }

  /// Every contract that expects a signed-in user after `restart` fails on a backend that
  /// keeps its session in the instance: `restart` must build a new instance over the same
  /// session store (reusing the old instance would make these contracts vacuous).
  @Test(arguments: [
    "anonymous-sign-in", "auth-state-initial-user", "concurrent-refresh-is-single-flight",
    "current-user-survives-restart", "expired-token-refreshed-transparently",
  ])
  func aMemoryOnlySessionFailsAfterRestart(_ name: String) async throws {
    let contract = try bundledContract(name)
    let restartStep = try #require(contract.steps.firstIndex { $0.operation == .restart }) + 1
    let sound = await ContractRunner.run(contract, on: MemoryHarness()).outcome
    #expect(sound == .passed, "\(sound)")
    let result = await ContractRunner.run(
      contract, on: MemoryHarness(flaws: [.memoryOnlySession]), eventTimeout: Self.eventTimeout)
    guard case .failed(let failure) = result.outcome else {
      Issue.record("\(name) passed with a memory-only session: \(result.outcome)")
      return
    }
    #expect((failure.step ?? 0) > restartStep, "\(failure)")
  }
}
