import Testing

@testable import BackendHTTP

/// An HTML parser reads code points: `<` followed by a combining mark (one Swift
/// `Character`) still opens a tag, so it is escaped like a bare `<`.
@Suite("HTML escaping per code point", .timeLimit(.minutes(1)))
struct HTMLEscapingPerScalarTests {
  @Test(
    arguments: [
      ("<\u{301}b>", "&lt;\u{301}b&gt;"), ("&\u{301}", "&amp;\u{301}"),
      ("\"\u{301}'\u{302}", "&quot;\u{301}&#39;\u{302}"), ("e\u{301}", "e\u{301}"),
    ])
  func escaped(text: String, expected: String) {
    // Strings compare by canonical equivalence; compare the code points.
    #expect(Array(HTMLEscaping.escaped(text).unicodeScalars) == Array(expected.unicodeScalars))
  }
}
