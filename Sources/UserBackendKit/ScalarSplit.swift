/// Splitting text at a syntax character (`=`, `:`) per Unicode scalar.
///
/// A Swift `Character` is a grapheme cluster: `=` followed by a combining mark is one
/// `Character` that is not equal to `"="`, so `firstIndex(of: "=")` on a `String` passes
/// over it. Every parser that splits untrusted text at a syntax character splits here,
/// per code point, as the other end of the wire reads it.
package enum ScalarSplit {
  /// The text before and after the first `separator`, or `nil` when there is none.
  package static func first(_ separator: Unicode.Scalar, in text: String)
    -> (before: String, after: String)?
  {
    let scalars = text.unicodeScalars
    guard let index = scalars.firstIndex(of: separator) else { return nil }
    return (
      String(String.UnicodeScalarView(scalars[..<index])),
      String(String.UnicodeScalarView(scalars[scalars.index(after: index)...]))
    )
  }

  /// The text before and after the last `separator`, or `nil` when there is none.
  package static func last(_ separator: Unicode.Scalar, in text: String)
    -> (before: String, after: String)?
  {
    let scalars = text.unicodeScalars
    guard let index = scalars.lastIndex(of: separator) else { return nil }
    return (
      String(String.UnicodeScalarView(scalars[..<index])),
      String(String.UnicodeScalarView(scalars[scalars.index(after: index)...]))
    )
  }
}
