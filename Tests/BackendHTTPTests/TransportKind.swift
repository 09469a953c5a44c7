import BackendHTTP
import Foundation
import Testing

/// The network transports whose behaviour tests run against each: every promise of
/// ``URLSessionTransport`` is also a promise of ``CurlTransport`` (the one
/// `NetworkTransport.standard()` picks on Linux).
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case urlSession
  #if canImport(CCurl)
    case curl
  #endif

  var testDescription: String { rawValue }

  /// Whether request fields go out in order with repeated names kept (`URLRequest`
  /// stores them in a dictionary, libcurl sends the lines it is given).
  var keepsFieldOrder: Bool { self != .urlSession }

  /// A new transport of this kind.
  func make(
    defaultTimeout: TimeInterval = URLSessionTransport.standardTimeout,
    maximumResponseBodyBytes: Int = URLSessionTransport.standardMaximumResponseBodyBytes
  ) -> any HTTPTransport {
    switch self {
    case .urlSession:
      URLSessionTransport(
        defaultTimeout: defaultTimeout, maximumResponseBodyBytes: maximumResponseBodyBytes)
    #if canImport(CCurl)
      case .curl:
        CurlTransport(
          defaultTimeout: defaultTimeout, maximumResponseBodyBytes: maximumResponseBodyBytes)
    #endif
    }
  }

  /// The default timeout a transport of this kind keeps for `defaultTimeout`.
  func effectiveDefaultTimeout(_ defaultTimeout: TimeInterval) -> TimeInterval {
    switch self {
    case .urlSession: URLSessionTransport(defaultTimeout: defaultTimeout).defaultTimeout
    #if canImport(CCurl)
      case .curl: CurlTransport(defaultTimeout: defaultTimeout).defaultTimeout
    #endif
    }
  }
}

/// Expects `send` to throw ``HTTPTransportError/invalidRequest(reason:)`` whose reason
/// contains none of `hidden`, and `server` to have seen no connection: the request was
/// refused before any network use.
func expectRefusedBeforeConnecting(
  _ server: LoopbackServer, hiding hidden: [String],
  sourceLocation: SourceLocation = #_sourceLocation,
  _ send: () async throws -> Void
) async {
  await #expect(sourceLocation: sourceLocation) {
    try await send()
  } throws: { error in
    guard case .invalidRequest(let reason) = error as? HTTPTransportError else { return false }
    return !hidden.contains { reason.contains($0) }
  }
  #expect(server.acceptedCount == 0, sourceLocation: sourceLocation)
}

extension HTTPTransportError {
  /// The case's name, for tables of expected mappings.
  var caseName: String {
    switch self {
    case .timedOut: "timedOut"
    case .connectionFailed: "connectionFailed"
    case .invalidResponse: "invalidResponse"
    case .invalidRequest: "invalidRequest"
    case .responseTooLarge: "responseTooLarge"
    }
  }
}
