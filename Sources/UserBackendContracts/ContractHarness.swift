import Foundation
import UserBackendKit

/// Plugs a backend into the contract runner (Go CDK's harness pattern): one harness per
/// backend flavour (`"fake"`, `"firebase-emulator"`, `"ncmb-replay"`, ...).
public protocol ContractHarness: Sendable {
  /// The column name in reports, e.g. `"fake"`, `"firebase-replay"`.
  var name: String { get }

  /// A fresh environment for one run of `contract`: its own user database, clock and
  /// (for replay) cassette.
  ///
  /// - Parameter variables: values the runner proposes for the contract's variables.
  ///   A replaying environment answers the recorded values instead.
  /// - Throws: ``ContractSkip`` to skip the contract with a reason (e.g. no cassette);
  ///   any other error fails the contract.
  func makeEnvironment(for contract: Contract, variables: [String: String]) async throws
    -> any ContractEnvironment
}

/// One run of one contract on one backend.
public protocol ContractEnvironment: Sendable {
  /// What the backend claims to support, plus ``Contract/rawServerRequests`` when the
  /// environment implements ``rawDocumentRead(userID:bearerToken:)``.
  var capabilities: Set<Capability> { get }
  /// The clock the backend reads, or `nil` when time is not controllable (live runs).
  /// Non-nil satisfies ``Contract/controllableClock``.
  var clock: ManualClock? { get }
  /// The final variable values: the proposals, or the recorded ones when replaying.
  var variables: [String: String] { get }

  /// A backend over `sessionStore`. Called once at the start and again, with the same
  /// store, for every `restart` step.
  /// - Throws: configuration errors; they fail the contract.
  func makeBackend(sessionStore: any SessionStore) async throws -> any UserBackend

  /// The SMS code sent for `verificationID`, or `nil` when the environment cannot see
  /// it (then phone sign-in steps skip the contract).
  /// - Throws: errors reading the environment; they fail the contract.
  func phoneVerificationCode(for verificationID: String) async throws -> String?

  /// The latest out-of-band code of `kind` the backend sent to `email` (the code of a
  /// password-reset or email-verification message), or `nil` when the environment cannot
  /// see such messages (then the step skips the contract with that reason). Emulator
  /// environments read the Auth Emulator listing
  /// `GET /emulator/v1/projects/{id}/oobCodes`; replay answers it from the cassette.
  /// - Throws: ``OutOfBandCodeNotFound`` when the environment sees the messages but none
  ///   of `kind` went to `email`; errors reading the environment. They fail the step.
  func outOfBandCode(email: String, kind: OutOfBandCodeKind) async throws -> String?

  /// Called once when the run ends (not when it was skipped): replay checks that every
  /// interaction was used; record writes the cassette only when `passed`.
  /// - Throws: errors that fail the contract (unused interactions, a refused write).
  func finish(passed: Bool) async throws

  /// The subject (user ID) of a bearer token, so that token expectations check the token
  /// itself rather than `currentUser()`. Default: the `sub` claim of a JWT, `nil` for a
  /// token that is not one (an environment with opaque tokens, like NCMB session tokens,
  /// answers from its user store).
  /// - Throws: errors reading the environment; they fail the step.
  func tokenSubject(_ token: String) async throws -> String?

  /// How many token refresh requests the backend has sent on the wire in this run so far,
  /// or `nil` when the environment cannot see its requests (default). A `concurrent`
  /// step's `refreshRequests` expectation compares the increase during the step.
  func tokenRefreshRequests() async -> Int?

  /// Reads `userID`'s document straight from the server with `bearerToken` (the
  /// signed-in user's), in a request of the environment's own: the wire protocol's read,
  /// never through the adapter, so no client-side check can stand in for the server's rule.
  /// Firestore: `GET …/documents/users/{userID}` with `Authorization: Bearer`; NCMB: the
  /// signed `GET /2013-09-01/users/{userID}` with `X-NCMB-Apps-Session-Token`. Through the
  /// run's transport, so a recording keeps it and a replay answers it.
  /// - Returns: the answer as the protocol reads it, or `nil` when the environment cannot
  ///   send its own requests (default; such an environment does not claim
  ///   ``Contract/rawServerRequests``).
  /// - Throws: transport errors; they fail the step.
  func rawDocumentRead(userID: String, bearerToken: String) async throws -> ServerAnswer?
}

extension ContractEnvironment {
  /// The JWT `sub` claim; `nil` when `token` is not a JWT or has no subject.
  public func tokenSubject(_ token: String) async throws -> String? {
    try? JSONWebToken(parsing: token).stringClaim("sub")
  }

  /// `nil`: requests are not visible.
  public func tokenRefreshRequests() async -> Int? { nil }

  /// `nil`: the environment cannot send requests of its own.
  public func rawDocumentRead(userID: String, bearerToken: String) async throws -> ServerAnswer? {
    nil
  }
}

/// The kind of an out-of-band code: what the message carrying it was for. The raw values
/// are the Auth Emulator's `requestType`s in its `oobCodes` listing.
public enum OutOfBandCodeKind: String, Sendable, Hashable, CaseIterable {
  /// A password-reset message (`sendPasswordReset`; completed by `confirmPasswordReset`).
  case passwordReset = "PASSWORD_RESET"
  /// An email-verification message (`sendEmailVerification`; completed by
  /// `applyEmailVerification`).
  case emailVerification = "VERIFY_EMAIL"
}

/// The environment sees out-of-band messages, but none of the kind went to the address.
public struct OutOfBandCodeNotFound: Error, Sendable, Hashable, CustomStringConvertible {
  /// The address asked about.
  public var email: String
  /// The kind asked about.
  public var kind: OutOfBandCodeKind
  /// A value.
  public init(email: String, kind: OutOfBandCodeKind) {
    self.email = email
    self.kind = kind
  }
  /// `no PASSWORD_RESET code was sent to a@example.com`.
  public var description: String { "no \(kind.rawValue) code was sent to \(email)" }
}

/// Thrown by a harness or environment to skip a contract instead of failing it.
public struct ContractSkip: Error, Sendable, Hashable, CustomStringConvertible {
  /// Why, e.g. `"no cassette Recordings/firebase/x.har"`.
  public var reason: String
  /// `true` when the environment, not the backend, cannot do what the contract needs: it
  /// cannot see SMS or out-of-band messages, or has no controllable clock (live runs).
  /// Such a skip says nothing about the backend, so ``SkipMatrix`` does not judge it
  /// (``ContractResult/skippedByEnvironment``).
  public var byEnvironment: Bool
  /// A skip with a reason; `byEnvironment` as described there (default `false`: a skip the
  /// skip matrix judges, such as a missing cassette).
  public init(_ reason: String, byEnvironment: Bool = false) {
    self.reason = reason
    self.byEnvironment = byEnvironment
  }
  /// The reason.
  public var description: String { reason }
}
