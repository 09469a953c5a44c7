/// Why a network transport got no response, in the words both transports use: a fixed
/// phrase followed by the loader's own code (`URLError -1004`, `curl error 7`), never the
/// loader's message, which may quote the URL or host.
enum LoaderFailure {
  case hostNotResolved, refused, connectionLost, networkUnavailable, tls, unusableResponse
  case unsupportedURL, authenticationAsked, answerTooLarge

  /// The error for this failure, `code` naming the loader's code (`"curl error 7"`).
  func error(_ code: String) -> HTTPTransportError {
    switch self {
    case .hostNotResolved:
      .connectionFailed(reason: "the host name could not be resolved (\(code))")
    case .refused: .connectionFailed(reason: "the server refused the connection (\(code))")
    case .connectionLost: .connectionFailed(reason: "the connection was lost (\(code))")
    case .networkUnavailable: .connectionFailed(reason: "the network is unavailable (\(code))")
    case .tls: .connectionFailed(reason: "the TLS connection failed (\(code))")
    case .unusableResponse:
      .invalidResponse(reason: "the server's response was not usable (\(code))")
    case .unsupportedURL: .invalidRequest(reason: "the URL is not supported (\(code))")
    case .authenticationAsked:
      .invalidResponse(reason: "the server asked for authentication (\(code))")
    case .answerTooLarge:
      .invalidResponse(
        reason: "the answer's header is larger than the loader holds, or memory ran out (\(code))")
    }
  }
}
