import BackendHTTP
import Foundation

/// The network transport for a harness that serves the emulator in the test process: every
/// request gets at least ``minimumTimeout`` seconds.
///
/// The emulator's handlers run on the same cooperative thread pool as every other test of
/// the run; on two cores, with hundreds of CPU-bound tests starting at once, a handler can
/// wait more than the adapters' own timeouts (NCMB's is 10 s) for a thread. The network
/// transport on Linux enforces its deadline on a thread of its own, so such a request
/// timed out although the emulator was sound (6 `ncmb-emulator-http` contracts in one CI
/// run). A timeout only bounds a server that never answers; a sound one is not slowed.
struct LoadTolerantTransport: HTTPTransport {
  /// Seconds every request may take at least: 120.
  static let minimumTimeout: TimeInterval = 120

  let wrapped: any HTTPTransport

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    var request = request
    request.timeout = max(request.timeout ?? 0, Self.minimumTimeout)
    return try await wrapped.send(request)
  }
}
