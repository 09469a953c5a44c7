import BackendHTTP
import Testing

@Suite("FormURLEncoding", .timeLimit(.minutes(2)))
struct FormURLEncodingTests {
  @Test(
    "escape leaves only unreserved characters, upper-case hex, space as %20",
    arguments: [
      ("aZ09-._~", "aZ09-._~"), ("a b", "a%20b"), ("+=&/", "%2B%3D%26%2F"),
      ("é", "%C3%A9"), (#"{"k":1}"#, "%7B%22k%22%3A1%7D"),
    ])
  func escape(_ text: String, _ expected: String) {
    #expect(FormURLEncoding.escape(text) == expected)
  }

  @Test("pairs decode what encode wrote; + is a space only in form bodies")
  func roundTrip() {
    let pairs = [("grant_type", "refresh_token"), ("v", "a b+c&d=é")]
    let text = FormURLEncoding.encode(pairs)
    #expect(
      FormURLEncoding.pairs(text, plusIsSpace: true).map { [$0.0, $0.1] }
        == pairs.map { [$0.0, $0.1] })
    #expect(FormURLEncoding.decode("a+b%20c", plusIsSpace: true) == "a b c")
    #expect(FormURLEncoding.decode("a+b", plusIsSpace: false) == "a+b")
    #expect(FormURLEncoding.pairs("flag&x=", plusIsSpace: true).map(\.1) == ["", ""])
  }
}
