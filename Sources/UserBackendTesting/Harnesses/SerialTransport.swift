import BackendHTTP
import Foundation

/// Passes requests to another transport one at a time, in arrival order.
///
/// Recording uses it in front of the `RecordingTransport`: when a contract fires identical
/// requests concurrently (twenty sign-ups of one email), the request that arrives first is
/// also the one the emulator answers first, so the winning response is always the first
/// entry and two recordings write the same cassette.
struct SerialTransport: HTTPTransport {
  let wrapped: any HTTPTransport
  private let gate = SerialGate()

  init(_ wrapped: any HTTPTransport) { self.wrapped = wrapped }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    await gate.acquire()
    do {
      let response = try await wrapped.send(request)
      await gate.release()
      return response
    } catch {
      await gate.release()
      throw error
    }
  }
}

/// A first-in first-out async lock.
private actor SerialGate {
  private var busy = false
  private var waiting: [CheckedContinuation<Void, Never>] = []

  func acquire() async {
    guard busy else {
      busy = true
      return
    }
    await withCheckedContinuation { waiting.append($0) }
  }

  func release() {
    if waiting.isEmpty {
      busy = false
    } else {
      waiting.removeFirst().resume()
    }
  }
}
