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
///
/// A refresh request first gives up the processor for ``overlapTurns`` scheduler turns.
/// In-process transports answer without a real suspension, so concurrent `idToken()`
/// callers would otherwise run one after another and never overlap: a backend without
/// single flight would still send one refresh. Waiting lets the other callers reach the
/// wire first, as they would over a network, so the count shows a missing single flight.
struct RefreshCountingTransport: HTTPTransport {
  let wrapped: any HTTPTransport
  let counter: RefreshCounter
  /// Scheduler turns a refresh request waits before it is sent.
  static let overlapTurns = 20

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    counter.note(request)
    if RefreshCounter.isRefresh(request) {
      for _ in 0..<Self.overlapTurns { await Task.yield() }
    }
    return try await wrapped.send(request)
  }
}
