import Foundation
import Testing

@testable import UserBackendKit

/// `IdentifierCanonicalization.email(_:)` now splits at `@` on the UTF-8 bytes and tests
/// whitespace per scalar. These pin it to the old algorithm, re-implemented here (split by
/// `Character`, `contains(where: \.isWhitespace)`), and name the inputs where a scalar
/// glued into a `Character` made the two differ.
@Suite(.timeLimit(.minutes(1))) struct EmailSplitEquivalenceTests {
  /// Every Unicode `White_Space` scalar.
  static let whitespaceScalars: [Unicode.Scalar] =
    (0x09...0x0D).map { Unicode.Scalar(UInt8($0)) } + [" ", "\u{85}", "\u{A0}", "\u{1680}"]
    + (0x2000...0x200A).compactMap { Unicode.Scalar(UInt32($0)) } + [
      "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}",
    ]

  /// The old `email(_:)`: a `Character` split and a `Character` whitespace test.
  static func oldEmail(_ email: String) -> Result<String, UserBackendError> {
    let folded = IdentifierCanonicalization.fold(email).lowercased()
    guard !folded.isEmpty else {
      return .failure(
        UserBackendError(.invalidInput(field: "email", reason: "must not be empty")))
    }
    let parts = folded.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
      !characterWhitespace(folded),
      !IdentifierCanonicalization.containsControlOrFormatCharacters(folded),
      let domain = oldASCIIDomain(String(parts[1]))
    else { return .failure(IdentifierCanonicalization.malformedEmail) }
    let canonical = parts[0] + "@" + domain
    guard canonical.unicodeScalars.count <= CredentialValidation.maximumEmailLength else {
      return .failure(IdentifierCanonicalization.malformedEmail)
    }
    return .success(canonical)
  }

  /// The old whitespace test: any `Character` that is whitespace.
  static func characterWhitespace(_ text: String) -> Bool {
    text.contains(where: \.isWhitespace)
  }

  /// The old ASCII test of `asciiDomain(_:)` (by `Character`); IDNA itself is unchanged.
  /// The host-name rule (``IdentifierCanonicalization/isUsableDomain(_:)``), added since,
  /// applies to both algorithms alike: this suite compares the splits.
  static func oldASCIIDomain(_ domain: String) -> String? {
    let lowered = domain.lowercased()
    if lowered.allSatisfy(\.isASCII) {
      return IdentifierCanonicalization.isUsableDomain(lowered) ? lowered : nil
    }
    return IdentifierCanonicalization.asciiDomain(lowered)
  }

  static func newEmail(_ email: String) -> Result<String, UserBackendError> {
    Result { () throws(UserBackendError) in try IdentifierCanonicalization.email(email) }
  }

  @Test(arguments: whitespaceScalars)
  func whitespaceInsideAnAddressIsRefused(scalar: Unicode.Scalar) {
    let space = String(Character(scalar))
    for address in [
      "a\(space)b@example.com", "ab@exa\(space)mple.com", "ab\(space)@example.com",
      "ab@\(space)example.com", "é\(space)b@example.com", "ab@bü\(space)cher.example",
      "a\(space)\u{301}b@example.com", "😀\(space)@example.com",
    ] {
      #expect(Self.newEmail(address) == .failure(IdentifierCanonicalization.malformedEmail))
      #expect(Self.newEmail(address) == Self.oldEmail(address), "\(address.debugDescription)")
    }
    // At either end it is trimmed, as before.
    for address in ["\(space)ab@example.com", "ab@example.com\(space)"] {
      #expect(Self.newEmail(address) == Self.oldEmail(address), "\(address.debugDescription)")
    }
  }

  @Test func theListIsEveryWhiteSpaceScalar() {
    let all = (0...0x10FFFF).compactMap { Unicode.Scalar(UInt32($0)) }.filter(
      \.properties.isWhitespace)
    #expect(all == Self.whitespaceScalars)
  }

  static let corpus: [String] = [
    "", "plain", "ascii text", "tab\there", "crlf\r\nline", "lf\nline", "cr\rline",
    "vt\u{0B}ff\u{0C}", "é", "émile", "e\u{301}", " \u{301}", "\u{301} ", "a \u{301}b",
    "\r\n\u{301}", "😀", "👩‍👩‍👧 family", "👩‍👩‍👧", "🇯🇵🇫🇷", "用户", "zero\u{200B}width",
    "bom\u{FEFF}", "mongolian\u{180E}", "nbsp\u{A0}", "ideo\u{3000}", "next\u{85}",
    "line\u{2028}", "para\u{2029}", "narrow\u{202F}", "math\u{205F}", "ogham\u{1680}",
    "en\u{2002}", "hair\u{200A}", "é\u{2009}", "~!#$%^&*()_+", "\u{7F}", "\0",
  ]

  @Test(arguments: corpus)
  func containsWhitespaceEqualsTheCharacterTest(text: String) {
    #expect(IdentifierCanonicalization.containsWhitespace(text) == Self.characterWhitespace(text))
  }

  @Test(arguments: whitespaceScalars)
  func containsWhitespaceFindsEveryWhiteSpaceScalar(scalar: Unicode.Scalar) {
    let space = String(Character(scalar))
    for text in [space, "a\(space)", "\(space)b", "é\(space)ü", "😀\(space)", "\(space)\u{301}"] {
      #expect(IdentifierCanonicalization.containsWhitespace(text))
      #expect(Self.characterWhitespace(text))
    }
  }

  /// U+0D4E (a Prepend letter) joins the space after it into one `Character` whose first
  /// scalar is not whitespace: the `Character` test missed that space, the scalar test
  /// finds it.
  @Test(arguments: ["a\u{D4E} b", "\u{D4E}\u{3000}", "é\u{D4E}\u{A0}", "\u{111C2}\u{2009}x"])
  func aPrependedLetterNoLongerHidesAWhitespace(text: String) {
    #expect(IdentifierCanonicalization.containsWhitespace(text))
    #expect(!Self.characterWhitespace(text))
  }

  static let addresses: [String] = [
    "user@example.com", "User@Example.COM", "  user@example.com\n", "", " ", "@", "@@", "a@",
    "@b.c", "a@b@c.d", "a@@b.c", "ab.c", "a@b", "a.b@c.d", "a+tag@example.com",
    "Ünïcödé@example.com", "e\u{301}mile@example.com", "用户@例子.广告", "user@bücher.example",
    "user@BÜCHER.example", "user@bu\u{308}cher.example", "user@xn--bcher-kva.example",
    "😀@example.com", "a@😀.com", "é@é", "a@b\u{301}.com", "a\u{301}@b.com", "a@b.com\u{301}",
    "a@\u{200B}b.com", "a\u{202E}@b.com", "a\u{0}@b.com", "a@b..com", "a@-b.com", "a@b.com.",
    "\"quoted\"@example.com", "a@[127.0.0.1]", "a\\@b@c.com",
    String(repeating: "a", count: 242) + "@example.com",
    String(repeating: "a", count: 243) + "@example.com",
    String(repeating: "é", count: 242) + "@example.com",
    String(repeating: "é", count: 243) + "@example.com",
    String(repeating: "e\u{301}", count: 242) + "@example.com",
    "a@" + String(repeating: "b", count: 63) + ".com",
    "a@" + String(repeating: "ü", count: 60) + ".com",
  ]

  @Test(arguments: addresses)
  func emailEqualsTheCharacterAlgorithm(address: String) {
    #expect(Self.newEmail(address) == Self.oldEmail(address), "\(address.debugDescription)")
  }

  /// Where the byte split and the scalar test differ from the `Character` ones: a scalar
  /// glued to `@` or to a space hid it from the `Character` algorithm. `U+0D4E` (MALAYALAM
  /// LETTER DOT REPH) is a Prepend letter that joins the next `Character`, whitespace
  /// included; a combining mark joins the `@` before it. The new answers are the right
  /// ones: one `@` byte, and no whitespace scalar, whatever the graphemes.
  @Test(
    arguments: [
      ("a\u{D4E} b@example.com", nil, "a\u{D4E} b@example.com"),
      ("a\u{D4E}\u{3000}b@example.com", nil, "a\u{D4E}\u{3000}b@example.com"),
      ("a\u{D4E}\u{A0}b@example.com", nil, "a\u{D4E}\u{A0}b@example.com"),
      ("ab@exa\u{D4E}\u{2009}mple.com", nil, nil),
      ("x@\u{301}@y.com", nil, "x@\u{301}@y.com"),
      ("x\u{D4E}@y.com", "x\u{D4E}@y.com", nil),
    ] as [(String, String?, String?)])
  func aGluedScalarNoLongerHidesWhitespaceOrAnAt(
    address: String, new: String?, old: String?
  ) {
    let malformed = Result<String, UserBackendError>.failure(
      IdentifierCanonicalization.malformedEmail)
    #expect(Self.newEmail(address) == (new.map { .success($0) } ?? malformed))
    #expect(Self.oldEmail(address) == (old.map { .success($0) } ?? malformed))
  }
}
