import BackendHTTP
import Foundation
import Testing
import UserBackendContracts
import UserBackendKit
import UserBackendTesting

/// The ID token a Firebase server handed out last.
final class LastIDToken: Sendable {
  private let value = LockedValue<String?>(nil)
  func set(_ token: String) { value.withLock { $0 = token } }
  func get() -> String? { value.withLock { $0 } }
}

/// A sound Firebase server whose refresh lands in the same second as the sign-up: the
/// refresh reaches the emulator, but its answer carries the ID token minted last, byte for
/// byte, as the Auth Emulator and the real service answer within one second (times in
/// whole seconds, no unique claim, a deterministic RS256 signature).
struct SameSecondTokenTransport: HTTPTransport {
  let wrapped: any HTTPTransport
  let last = LastIDToken()

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    var response = try await wrapped.send(request)
    guard response.status == 200,
      var object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]
    else { return response }
    if let token = object["idToken"] as? String {
      last.set(token)
    } else if request.url.path.hasSuffix("/v1/token"), let token = last.get() {
      object["id_token"] = token
      object["access_token"] = token
      response.body = try JSONSerialization.data(withJSONObject: object)
    }
    return response
  }
}

/// `id-token-forced-refresh` failed on `firebase-live` against the emulator whenever the
/// forced refresh landed in the same second as the sign-up: it demanded different bytes.
/// It now demands what a refresh is: a request to the server (counted on the wire) and a
/// token for the same user issued no earlier than the old one.
@Suite(.timeLimit(.minutes(1))) struct SameSecondRefreshTests {
  func sameSecondHarness() -> EmulatorHarness {
    var harness = EmulatorHarness(backend: .firebase)
    harness.serverFault = { SameSecondTokenTransport(wrapped: $0) }
    return harness
  }

  @Test func aRefreshAnsweredWithTheSameBytesPasses() async throws {
    let contract = try loadContract("id-token-forced-refresh")
    let result = await ContractRunner.run(contract, on: sameSecondHarness())
    #expect(result.outcome == .passed, "\(result.outcome)")
  }

  /// The scenario is real: the former expectation (different bytes) fails on it.
  @Test func theFormerExpectationFailsOnTheSameBytes() async throws {
    var contract = try loadContract("id-token-forced-refresh")
    let forced = try #require(contract.steps.firstIndex { $0.label == "forced" })
    contract.steps[forced].expectation = .token(
      TokenExpectation(differentFrom: "first", sameUserAs: "new"))
    let result = await ContractRunner.run(contract, on: sameSecondHarness())
    guard case .failed(let failure) = result.outcome else {
      Issue.record("expected the byte comparison to fail: \(result.outcome)")
      return
    }
    #expect(failure.step == forced + 1, "\(failure)")
    #expect(failure.actual.contains("the same token as step \"first\""), "\(failure)")
  }
}
