import BackendHTTP
import Foundation
import Testing

/// The unreserved-only fast path of ``FormURLEncoding/escape(_:)`` gives what Foundation's
/// percent-encoding gives, for every ASCII character alone and inside unreserved text.
@Suite(.timeLimit(.minutes(1))) struct FormURLEncodingFastPathTests {
  @Test(arguments: 0..<0x80)
  func asciiCharacterEncodesAsFoundationDoes(code: Int) {
    let text = "Ab0-._~" + String(Character(Unicode.Scalar(UInt8(code)))) + "z"
    let expected = text.addingPercentEncoding(withAllowedCharacters: FormURLEncoding.unreserved)
    #expect(FormURLEncoding.escape(text) == expected)
  }

  @Test(arguments: ["", "users", "2013-09-01", "login", "a~b_c.d-e", "é", "a b", "😀"])
  func wordsEncodeAsFoundationDoes(text: String) {
    let expected = text.addingPercentEncoding(withAllowedCharacters: FormURLEncoding.unreserved)
    #expect(FormURLEncoding.escape(text) == expected)
  }
}
