import BackendHTTP
import Foundation
import Synchronization

/// Counts the token refresh requests an adapter sends, so that contracts can check on the
/// wire that concurrent `idToken()` calls after expiry share one refresh (single flight).
///
/// A refresh request is a `POST` whose URL path ends in `/v1/token`: Firebase's
/// `securetoken.googleapis.com/v1/token`, reached directly or through the emulator's
/// loopback form `http://127.0.0.1:PORT/securetoken.googleapis.com/v1/token`. NCMB has no
/// refresh endpoint, so its count stays 0.
final class RefreshCounter: Sendable {
  private let count = Atomic<Int>(0)

  /// The refresh requests seen so far.
  var value: Int { count.load(ordering: .relaxed) }

  /// Whether `request` is a token refresh request.
  static func isRefresh(_ request: HTTPRequest) -> Bool {
    request.method == .post && request.url.path.hasSuffix("/v1/token")
  }

  /// Counts `request` when it is a refresh request.
  func note(_ request: HTTPRequest) {
    if Self.isRefresh(request) { count.add(1, ordering: .relaxed) }
  }
}

/// A transport that notes every request in a ``RefreshCounter`` before sending it on.
struct RefreshCountingTransport: HTTPTransport {
  let wrapped: any HTTPTransport
  let counter: RefreshCounter

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    counter.note(request)
    return try await wrapped.send(request)
  }
}
