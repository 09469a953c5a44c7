import Foundation
import Testing
import UserBackendKit

/// The photo URL's one rule (no user name or password, a port 1…65535 written without
/// leading zeros, an empty port refused) applies to the input and to what a server sends:
/// a server's value the input rule refuses is dropped (`nil`), as an over-long one is.
@Suite("Photo URL: port rule; server values under the input rule", .timeLimit(.minutes(1)))
struct PhotoURLPortAndServerValueTests {
  static let badPorts = [
    "https://h.example:065/x", "https://h.example:/x", "https://h.example:99999/x",
    "https://h.example:0/x", "https://[::1]:065/x", "https://[::1]:/x",
    "https://h.example:/",
  ]

  @Test(
    "a leading-zero, empty or out-of-range port is refused naming photoURL", arguments: badPorts)
  func badPortRefused(url: String) {
    #expect {
      _ = try CredentialValidation.validatePhotoURL(url)
    } throws: { error in
      guard let error = error as? UserBackendError,
        case .invalidInput(let field, let reason) = error.code
      else { return false }
      return field == "photoURL" && reason.contains("leading zeros") && reason.contains("empty")
    }
  }

  @Test(
    "usable ports are accepted",
    arguments: [
      "https://h.example:65/x", "https://h.example:65535/x", "https://[::1]:8080/x",
      "https://h.example/x", "http://h.example:1",
    ])
  func goodPortAccepted(url: String) throws {
    #expect(try CredentialValidation.validatePhotoURL(url) == .set(url))
  }

  static let badServerValues =
    badPorts + [
      "https://user:secret@h.example/p.png", "https://user@h.example/p.png",
      "ftp://h.example/p.png", "javascript:alert(1)", "/relative/p.png",
    ]

  @Test("a server's photo URL the input rule refuses is dropped", arguments: badServerValues)
  func serverValueDropped(url: String) {
    #expect(AnswerLimits.usablePhotoURL(url) == nil)
    let user = User(id: "u1", photoURL: URL(string: url))
    #expect(AnswerLimits.keepingUsableProfile(user).photoURL == nil)
  }

  @Test("a server's photo URL with whitespace is dropped (as text; a URL value cannot hold it)")
  func whitespaceDropped() {
    #expect(AnswerLimits.usablePhotoURL("https://h.example/a b.png") == nil)
  }

  @Test("a server's usable photo URL is kept")
  func serverValueKept() {
    let url = "https://h.example:8443/p.png?size=2"
    #expect(AnswerLimits.usablePhotoURL(url)?.absoluteString == url)
    let user = User(id: "u1", photoURL: URL(string: url))
    #expect(AnswerLimits.keepingUsableProfile(user).photoURL?.absoluteString == url)
  }
}
