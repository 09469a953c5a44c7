import BackendHTTP
import Foundation
import UserBackendKit

extension UserBackendError {
  /// The portable error for a request that got no response: always
  /// `.network(reason:)`, whose reason never contains the request's URL or headers.
  ///
  /// - an error adopting ``SecretFreeDescription`` (``HTTPTransportError``, HTTPReplay's
  ///   `ReplayError` and `CassetteSessionError`) keeps its own description, so a replay
  ///   mismatch still names the differing field;
  /// - `CancellationError` becomes "the request was cancelled";
  /// - a ``UserBackendError`` a middleware threw is returned unchanged;
  /// - anything else is named by its error domain and code only, because foreign error
  ///   descriptions (`URLError`, for one) often quote the URL, which may carry an API key.
  public init(transportFailure error: any Error) {
    switch error {
    case let error as UserBackendError:
      self = error
    case let error as any SecretFreeDescription:
      self.init(.network(reason: error.description))
    case is CancellationError:
      self.init(.network(reason: "the request was cancelled"))
    default:
      let nsError = error as NSError
      self.init(.network(reason: "\(nsError.domain) error \(nsError.code)"))
    }
  }
}

extension HTTPTransport {
  /// Sends `request`; any failure to get a response is thrown as
  /// ``UserBackendKit/UserBackendError/init(transportFailure:)`` (`.network`).
  ///
  /// - Returns: the response, whatever its status.
  /// - Throws: ``UserBackendKit/UserBackendError`` only.
  public func sendForBackend(_ request: HTTPRequest) async throws(UserBackendError)
    -> HTTPResponse
  {
    do {
      return try await send(request)
    } catch {
      throw UserBackendError(transportFailure: error)
    }
  }
}
