import Foundation
import Testing

@testable import FirebaseUserBackend

/// The wording of "the answer is not JSON": it guesses HTML only for a body that starts
/// with `<`, never for JSON the reader refuses (a lone surrogate escape `"\ud800"`).
@Suite(
  "Firebase client: an unreadable answer is described without guessing", .timeLimit(.minutes(1)))
struct UnreadableAnswerWordingTests {
  struct Answer: Decodable { var x: String }

  func description(of body: String) -> String {
    let data = Data(body.utf8)
    do {
      _ = try JSONDecoder().decode(Answer.self, from: data)
      return "decoded"
    } catch {
      return FirebaseClient.describeDecoding(error, body: data)
    }
  }

  @Test(arguments: [#"{"x":"\ud800"}"#, #"{"x":"a\udc00b"}"#, #"{"x":"#, "not json"])
  func notJSON(body: String) {
    let text = description(of: body)
    #expect(text.contains("is not valid JSON"), "\(text)")
    #expect(!text.contains("HTML"), "\(text)")
  }

  @Test func html() {
    let text = description(of: "  <html><body>502 Bad Gateway</body></html>")
    #expect(text.contains("is not valid JSON"))
    #expect(text.contains("HTML"))
  }
}
