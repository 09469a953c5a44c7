import BackendHTTP
import Foundation
import UserBackendKit

/// Remembers, from the server's own answers, which user each opaque session token was
/// issued to: every JSON response body holding both `sessionToken` and `objectId` (NCMB
/// sign-up, login, anonymous and SNS sign-in). Live and recording environments answer
/// ``UserBackendContracts/ContractEnvironment/tokenSubject(_:)`` from it, so token
/// expectations check what the server said rather than the adapter's stored session.
final class SessionTokenWitness: Sendable {
  private let subjects = LockedValue<[String: String]>([:])

  /// The `objectId` the server answered together with `token`, if seen.
  func subject(of token: String) -> String? { subjects.withLock { $0[token] } }

  /// Notes the pair in `response`'s body, if it has one.
  func note(_ response: HTTPResponse) {
    guard
      let body = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
      let token = body["sessionToken"] as? String, let id = body["objectId"] as? String
    else { return }
    subjects.withLock { $0[token] = id }
  }
}

/// A transport that shows every response to a ``SessionTokenWitness``.
struct WitnessingTransport: HTTPTransport {
  let wrapped: any HTTPTransport
  let witness: SessionTokenWitness

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let response = try await wrapped.send(request)
    witness.note(response)
    return response
  }
}
