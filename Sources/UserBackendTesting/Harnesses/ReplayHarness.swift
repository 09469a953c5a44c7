import BackendHTTP
import Foundation
import HTTPReplay
import NCMBSigning
import NCMBUserBackend
import UserBackendContracts
import UserBackendKit

/// Runs contracts against `FirebaseUserBackend` or `NCMBUserBackend` answered from the
/// cassettes `<recordings>/<backend>/<contract>.har` (docs/cassettes.md; docs/ARCHITECTURE.md
/// "Contracts and recordings"); never touches the network.
///
/// Each run opens a `CassetteSession` in `replay` mode and builds the adapter with:
/// - a `ManualClock` at the cassette's clock (so NCMB timestamps and token expiry are
///   reproduced, and `controllableClock` contracts run);
/// - the cassette's variables instead of fresh ones, and its seed for NCMB's anonymous
///   identities;
/// - the fixed fake keys ``WireBackend/Keys/replay``; for NCMB a request verifier
///   recomputes each request's `X-NCMB-Signature` with the replay client key
///   (`NCMBSignature.validate`) and fails the request on a mismatch;
/// - SMS codes from the cassette's `sms:<verification>` variables.
///
/// A contract the backend can run but that has no cassette fails with the path and how to
/// record it; entries the run did not use fail the run when it ends.
public struct ReplayHarness: ContractHarness {
  /// The wire protocol replayed.
  public let backend: WireBackend
  /// The root of the recordings (`Recordings/`).
  public let recordings: URL
  /// The keys the adapter is built with (default ``WireBackend/Keys/replay``).
  public let keys: WireBackend.Keys

  /// `<backend>-replay`.
  public var name: String { backend.rawValue + "-replay" }

  /// A harness reading `<recordings>/<backend>/*.har`, building adapters with `keys`.
  public init(backend: WireBackend, recordings: URL, keys: WireBackend.Keys = .replay) {
    self.backend = backend
    self.recordings = recordings
    self.keys = keys
  }

  /// The `_replay.variables` prefix of a recorded NCMB request signature:
  /// `ncmbSignature:POST /2013-09-01/users` -> the `X-NCMB-Signature` the request must
  /// carry. Documentation cassettes hold signatures computed with the documented keys and
  /// timestamp, so replay with those keys checks the signing code against them.
  public static let signatureVariablePrefix = "ncmbSignature:"

  /// The cassette file of `contract`.
  public func cassetteURL(for contract: String) -> URL {
    recordings.appendingPathComponent(backend.rawValue, isDirectory: true)
      .appendingPathComponent("\(contract).har")
  }

  /// The replay environment, or (no cassette) one whose backend cannot be built, so that
  /// the runner still skips contracts the backend cannot run and fails the others.
  /// - Throws: `CassetteError` for an unreadable or malformed cassette.
  public func makeEnvironment(for contract: Contract, variables: [String: String]) async throws
    -> any ContractEnvironment
  {
    let keys = self.keys
    let capabilities = try backend.capabilities(keys: keys).union([Contract.rawServerRequests])
    let url = cassetteURL(for: contract.name)
    guard FileManager.default.fileExists(atPath: url.path) else {
      return MissingCassetteEnvironment(
        capabilities: capabilities, variables: variables,
        problem: "no cassette \(url.path) for contract \(contract.name); record it with "
          + "`baas record --backend \(backend.rawValue) --emulator`")
    }
    let clientKey = keys.ncmbClientKey
    let verifier: (@Sendable (HTTPRequest) throws -> Void)? =
      switch backend {
      case .firebase: nil
      case .ncmb:
        { [signatures = try Self.recordedSignatures(in: url)] request in
          try NCMBSignature.validate(request: request, clientKey: clientKey)
          let key = request.method.rawValue + " " + request.rawPath
          if let recorded = signatures[key],
            request.headerFields[NCMBSignature.Header.signature] != recorded
          {
            throw RecordedSignatureMismatch(request: key)
          }
        }
      }
    let session = try CassetteSession(
      mode: .replay, cassetteURL: url, live: nil,
      recording: RecordingConfiguration(
        backend: backend.rawValue, contract: contract.name, rules: backend.redactionRules,
        secrets: keys.secrets, clock: Date(timeIntervalSince1970: 0), seed: 0),
      requestVerifier: verifier)
    let recorded = session.variables ?? [:]
    return ReplayEnvironment(
      backend: backend, keys: keys, session: session, clock: session.makeClock(),
      capabilities: capabilities,
      variables: recorded.filter {
        !$0.key.hasPrefix(EmulatorRecordingHarness.smsVariablePrefix)
          && !$0.key.hasPrefix(Self.signatureVariablePrefix)
      },
      codes: recorded, uuids: WireBackend.uuidSource(seed: session.seed))
  }
}

extension ReplayHarness {
  /// The recorded signatures of the cassette at `url` (`METHOD path` -> signature).
  static func recordedSignatures(in url: URL) throws -> [String: String] {
    let data = try BoundedFileRead.data(contentsOf: url, limit: BoundedFileRead.largeFileLimit)
    let root = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    let log = root?["log"] as? [String: Any]
    let replay = log?["_replay"] as? [String: Any]
    let variables = replay?["variables"] as? [String: String] ?? [:]
    var signatures: [String: String] = [:]
    for (name, value) in variables where name.hasPrefix(signatureVariablePrefix) {
      signatures[String(name.dropFirst(signatureVariablePrefix.count))] = value
    }
    return signatures
  }
}

/// An NCMB request's signature differs from the one recorded for it.
public struct RecordedSignatureMismatch: Error, Sendable, Hashable, CustomStringConvertible,
  SecretFreeDescription
{
  /// `METHOD path`.
  public var request: String
  /// Names the request; never the signature or a key.
  public var description: String {
    "the X-NCMB-Signature of \(request) differs from the one recorded with the documented "
      + "keys and timestamp: the signing code changed incompatibly"
  }
}

/// One replayed run: the session's transport, clock and variables.
struct ReplayEnvironment: ContractEnvironment {
  let backend: WireBackend
  let keys: WireBackend.Keys
  let session: CassetteSession
  let clock: ManualClock?
  let capabilities: Set<Capability>
  let variables: [String: String]
  /// Every recorded variable, including the `sms:` entries.
  let codes: [String: String]
  let uuids: @Sendable () -> UUID
  /// The token refresh requests every backend of this run asked the cassette for.
  let refreshes = RefreshCounter()

  func makeBackend(sessionStore: any SessionStore) async throws -> any UserBackend {
    try backend.makeAdapter(
      keys: keys,
      transport: RefreshCountingTransport(wrapped: session.transport, counter: refreshes),
      sessionStore: sessionStore, clock: clock ?? ManualClock(session.clock), uuids: uuids)
  }

  /// Refresh requests counted on the wire so far.
  func tokenRefreshRequests() async -> Int? { refreshes.value }

  /// The environment's own read of `userID`'s document, answered from the cassette (the
  /// recording sent it through the recorder), stamped with the cassette's clock.
  /// - Throws: `ReplayError` when the cassette has no such request; transport errors.
  func rawDocumentRead(userID: String, bearerToken: String) async throws -> ServerAnswer? {
    try await backend.rawDocumentRead(
      userID: userID, bearerToken: bearerToken, keys: keys,
      now: clock?.now() ?? session.clock, transport: session.transport)
  }

  /// The JWT `sub` of a Firebase ID token; for an NCMB session token, the `objectId` the
  /// recorded response handed it out with.
  /// - Throws: the cassette's read error.
  func tokenSubject(_ token: String) async throws -> String? {
    if let subject = try? JSONWebToken(parsing: token).stringClaim("sub") { return subject }
    return try CassetteTokenSubjects.subject(of: token, inCassette: session.cassetteURL)
  }

  /// The code recorded for `verificationID` (the alias the replayed response handed out).
  ///
  /// Cassettes store SMS codes redacted (`<SMS_CODE_2>`), like every secret. The client
  /// must still send digits, so an alias becomes a stand-in code of its own (`400002`);
  /// redaction of the replayed request turns it back into the same alias, because aliases
  /// are numbered by first appearance and the stand-ins are as distinct as the originals.
  func phoneVerificationCode(for verificationID: String) async throws -> String? {
    guard let code = codes[EmulatorRecordingHarness.smsVariable(verificationID: verificationID)]
    else { return nil }
    return Self.standInCode(for: code)
  }

  /// `400002` for `<SMS_CODE_2>`; any other value unchanged.
  static func standInCode(for code: String) -> String {
    let prefix = "<SMS_CODE_"
    guard code.hasPrefix(prefix), code.hasSuffix(">"),
      let number = Int(code.dropFirst(prefix.count).dropLast()), (0..<100_000).contains(number)
    else { return code }
    let digits = String(number)
    return "4" + String(repeating: "0", count: 5 - digits.count) + digits
  }

  /// The code from the recorded answer of the emulator's `oobCodes` listing (the
  /// recording sent the same request through the recorder): the code's alias
  /// (`<OOB_CODE_1>`), which the adapter sends back and the replayed request matches.
  /// - Throws: `OutOfBandCodeNotFound`, ``OutOfBandListingError``, `ReplayError` when the
  ///   cassette has no such request.
  func outOfBandCode(email: String, kind: OutOfBandCodeKind) async throws -> String? {
    try await OutOfBandCodeListing.latestCode(
      email: email, kind: kind, projectID: WireBackend.projectID,
      host: keys.firebaseEmulatorHost, transport: session.transport)
  }

  /// Fails when the run passed but left recorded entries unused.
  /// - Throws: `ReplayError.unusedEntries`.
  func finish(passed: Bool) async throws {
    try session.finish(passed: passed, variables: variables)
  }
}

/// A run whose cassette is missing: capabilities are the backend's (so inapplicable
/// contracts are still skipped), and building the backend fails with ``problem``.
struct MissingCassetteEnvironment: ContractEnvironment {
  let capabilities: Set<Capability>
  let variables: [String: String]
  let problem: String

  /// Replay time is always controllable, as it would be with a cassette.
  var clock: ManualClock? { ManualClock() }

  /// Always throws: there is nothing to replay.
  /// - Throws: ``MissingCassette``.
  func makeBackend(sessionStore: any SessionStore) async throws -> any UserBackend {
    throw MissingCassette(description: problem)
  }

  func phoneVerificationCode(for verificationID: String) async throws -> String? { nil }

  func outOfBandCode(email: String, kind: OutOfBandCodeKind) async throws -> String? { nil }

  func finish(passed: Bool) async throws {}
}

/// An applicable contract has no cassette: the message names the file and the command
/// that records it.
public struct MissingCassette: Error, Sendable, Hashable, CustomStringConvertible {
  /// The message.
  public var description: String
}
