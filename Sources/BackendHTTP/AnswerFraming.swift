/// The framing check of an answer's head that both network transports make after the
/// loader read it (RFC 9112 §6.3): `Content-Length` fields (or one field's
/// comma-separated list) with different values leave the body's end unknown, an
/// unrecoverable framing error. The loader picks one of them, so without this check the
/// body would be cut (or run on) and reported later as JSON that is not valid, which it
/// never was. The same value repeated is one framing and passes.
enum AnswerFraming {
  /// The error for `fields`, or `nil` when their framing has one reading.
  static func problem(_ fields: HTTPFields) -> HTTPTransportError? {
    let lengths = fields.values(for: "Content-Length")
      .flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
      .map { $0.trimmingSpaces() }
    guard let first = lengths.first, lengths.contains(where: { $0 != first }) else {
      return nil
    }
    return .invalidResponse(
      reason: "the answer's framing is ambiguous: Content-Length fields with different values")
  }
}

extension Substring {
  /// The text without spaces and tabs around it.
  fileprivate func trimmingSpaces() -> String {
    let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    return String(drop(while: blank).reversed().drop(while: blank).reversed())
  }
}
