import BackendHTTP
import Foundation
import UserBackendKit

extension UserBackendError {
  /// The portable error for a request that got no usable response: `.network(reason:)`,
  /// whose reason never contains the request's URL or headers, except for an answer body
  /// over the transport's limit (``HTTPTransportError/responseTooLarge(limit:)``), which
  /// is `.malformedResponse`: the server did answer, with something no API sends.
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
    case HTTPTransportError.responseTooLarge(let limit):
      self.init(.malformedResponse(reason: "the answer's body is larger than \(limit) bytes"))
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
  /// Two kinds of answer are refused here for both adapters: a 3xx (none of the services
  /// redirects its API, and following one would send the signature, keys and session
  /// token to another address; the network transports follow none; a 3xx that is not a
  /// redirect, such as `304 Not Modified`, is named as such), and a body
  /// larger than ``maximumResponseBodyBytes`` (the network transports stop reading at their
  /// own limit, the same by default; this check covers every other transport).
  ///
  /// - Returns: the response, with any status outside 300–399.
  /// - Throws: ``UserBackendKit/UserBackendError`` only: `.server(status:)` naming a 3xx
  ///   status; `.malformedResponse` for an oversized body; `.network`.
  public func sendForBackend(_ request: HTTPRequest) async throws(UserBackendError)
    -> HTTPResponse
  {
    let response: HTTPResponse
    do {
      response = try await send(request)
    } catch {
      throw UserBackendError(transportFailure: error)
    }
    if (300..<400).contains(response.status) {
      throw UserBackendError(
        .server(status: response.status, code: nil, message: nil),
        message: TransportAnswer.describeThreeHundred(response))
    }
    if response.body.count > maximumResponseBodyBytes {
      throw UserBackendError(
        .malformedResponse(
          reason: "the answer's body is larger than \(maximumResponseBodyBytes) bytes"))
    }
    return response
  }
}

/// Texts about answers that ``HTTPTransport/sendForBackend(_:)`` refuses.
enum TransportAnswer {
  /// The statuses that send the client elsewhere (RFC 9110 §15.4).
  private static let redirects: Set<Int> = [300, 301, 302, 303, 307, 308]

  /// The message for a 3xx `response`: a redirect (one of ``redirects``, or any 3xx with
  /// a `Location`) says it was not followed; another 3xx (`304 Not Modified`, which no
  /// request of the adapters can draw, since none is conditional) is named as what it is.
  static func describeThreeHundred(_ response: HTTPResponse) -> String {
    if redirects.contains(response.status)
      || !response.headerFields.values(for: "Location").isEmpty
    {
      return "the server answered HTTP \(response.status), a redirect; redirects are not "
        + "followed, so no credentials went to another address"
    }
    return "the server answered HTTP \(response.status), a 3xx status that answers no "
      + "request of this adapter (none is conditional or asks to be sent elsewhere)"
  }
}

/// The largest response body an adapter accepts: 10 MiB. No answer of the user APIs comes
/// near it; a larger one is refused as `.malformedResponse` before it is decoded.
public let maximumResponseBodyBytes = URLSessionTransport.standardMaximumResponseBodyBytes
