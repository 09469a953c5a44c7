/// The check of an answer's head that both network transports make after the loader read
/// it, so an answer no HTTP server sends is an invalid response named for what it is
/// rather than read one way and reported later as something it never was:
///
/// - a status outside 100–599 (RFC 9110 §15: the status is three digits, and the first
///   names one of five classes), which libcurl and URLSession both pass on;
/// - `Content-Length` fields (or one field's comma-separated list) with different
///   values: the body's end is unknown, an unrecoverable framing error (RFC 9112 §6.3).
///   The loader picks one of them, so without this check the body would be cut (or run
///   on) and reported as JSON that is not valid. The same value repeated is one framing
///   and passes;
/// - `Transfer-Encoding` together with `Content-Length`: the loaders let the transfer
///   coding win, but RFC 9112 §6.3 says such a message "ought to be handled as an error"
///   (it is how responses are split and requests smuggled), and no service answers so.
enum AnswerFraming {
  /// The error for an answer with `status` and `fields`, or `nil` when its head has one
  /// reading.
  static func problem(status: Int, _ fields: HTTPFields) -> HTTPTransportError? {
    guard status > 0 else { return .invalidResponse(reason: "not an HTTP response") }
    guard (100...599).contains(status) else {
      return .invalidResponse(reason: "the answer's status \(status) is outside 100–599")
    }
    let lengths = fields.values(for: "Content-Length")
      .flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
      .map { $0.trimmingSpaces() }
    if let first = lengths.first, lengths.contains(where: { $0 != first }) {
      return .invalidResponse(
        reason: "the answer's framing is ambiguous: Content-Length fields with different values")
    }
    if !lengths.isEmpty, !fields.values(for: "Transfer-Encoding").isEmpty {
      return .invalidResponse(
        reason: "the answer's framing is ambiguous: Transfer-Encoding and Content-Length "
          + "together")
    }
    return nil
  }
}

extension Substring {
  /// The text without spaces and tabs around it.
  fileprivate func trimmingSpaces() -> String {
    let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    return String(drop(while: blank).reversed().drop(while: blank).reversed())
  }
}
