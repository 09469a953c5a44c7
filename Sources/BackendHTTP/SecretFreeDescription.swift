/// An error whose `description` is known never to contain a secret (password, token,
/// API key, client key) nor a request URL or header value, so it may be shown to users
/// and kept in ``UserBackendKit/UserBackendError`` messages verbatim.
///
/// Adopt it only when every case's description is built from values that cannot carry a
/// secret: fixed text, or redacted request data (as HTTPReplay's replay errors are, whose
/// values are the cassette's aliases). ``HTTPTransportError`` adopts it. Errors that do
/// not adopt it (`URLError`, whose description quotes the URL with its `?key=`) are named
/// by error domain and code only in ``UserBackendKit/UserBackendError/init(transportFailure:)``.
public protocol SecretFreeDescription: Error, CustomStringConvertible {}

extension HTTPTransportError: SecretFreeDescription {}
