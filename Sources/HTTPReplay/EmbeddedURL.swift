import Foundation

/// An absolute URL held in a value (a JSON string such as Firebase's `oobLink`, a form
/// field such as `redirect_uri`, a `Location` header): its query and fragment items are
/// named like request query parameters (`…&oobCode=X&apiKey=Y`), so redaction aliases
/// the ones a query rule or ``CredentialFieldNames`` names and the leak scan reports them
/// in the clear, as for the request's own URL. Found by an attack run: the `oobCode` of
/// an `oobLink` answered without a separate `oobCode` member was stored in the clear.
struct EmbeddedURL {
  /// Everything before the query (scheme, authority, path).
  var head: Substring
  /// The text after the first `?` (before any `#`), if any.
  var query: Substring?
  /// The text after the first `#`, if any.
  var fragment: Substring?

  /// The parts of `text` when it is an absolute URL (`scheme://…`, no white space or
  /// control characters) with a query or a fragment, else `nil`.
  init?(_ text: String) {
    guard let separator = text.range(of: "://") else { return nil }
    let scheme = text[..<separator.lowerBound]
    guard let first = scheme.unicodeScalars.first, first.isASCIILetter,
      scheme.unicodeScalars.allSatisfy(\.isSchemeScalar),
      !text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 })
    else { return nil }
    var rest = Substring(text)
    if let hash = rest.firstIndex(of: "#") {
      fragment = rest[rest.index(after: hash)...]
      rest = rest[..<hash]
    }
    if let question = rest.firstIndex(of: "?") {
      query = rest[rest.index(after: question)...]
      rest = rest[..<question]
    }
    guard query != nil || fragment != nil else { return nil }
    head = rest
  }

  /// The rules for the items of a URL held in a body or header: the query rules, then the
  /// JSON rules (an `oobCode` item is aliased as the `oobCode` field is, `<OOB_CODE_n>`),
  /// then (in the callers) ``CredentialFieldNames``.
  static func itemRules(_ rules: RedactionRules) -> [RedactionRule] {
    rules.queryParameters + rules.jsonFields
  }
}

extension Unicode.Scalar {
  fileprivate var isASCIILetter: Bool {
    ("a"..."z").contains(self) || ("A"..."Z").contains(self)
  }

  /// A letter, digit, `+`, `-` or `.` (RFC 3986 §3.1).
  fileprivate var isSchemeScalar: Bool {
    isASCIILetter || ("0"..."9").contains(self) || self == "+" || self == "-" || self == "."
  }
}
