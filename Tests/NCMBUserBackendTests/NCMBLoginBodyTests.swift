import Foundation
import Testing
import UserBackendKit

@testable import NCMBUserBackend

/// The `login` body is now the `NCMBLoginRequest` type instead of a `[String: String]`.
/// Both go through the client's encoder (sorted keys, slashes not escaped); the bytes must
/// be the same for every field and every kind of text JSON escapes.
@Suite(.timeLimit(.minutes(1))) struct NCMBLoginBodyTests {
  static let values: [String] = [
    "alice", "", "a\"b", "a\\b", "a/b", "</script>", "émile", "e\u{301}mile", "用户",
    "😀👩‍👩‍👧", "\u{0}", "\u{1}\u{1F}\u{7F}", "tab\tnew\nline\rcr", "\u{8}\u{C}", "\u{2028}\u{2029}",
    "\u{FEFF}bom", "\u{200B}", "a@example.com", "User+Tag@Bücher.example",
    "pa ss&w:rd!+é", "{\"json\":[1,2]}", String(repeating: "x", count: 300),
  ]

  @Test(arguments: ["userName", "mailAddress"], values)
  func bodyEqualsTheDictionaryBody(field: String, value: String) throws {
    for password in [Fixture.password, value, "p\"a\\s/s\u{0}😀"] {
      let typed = try NCMBClient.json(
        NCMBLoginRequest(
          attempt: NCMBLoginAttempt(field: field, value: value), password: password))
      let dictionary = try NCMBClient.json([field: value, "password": password])
      #expect(typed == dictionary)
      let decoded = try JSONDecoder().decode([String: String].self, from: typed)
      #expect(decoded == [field: value, "password": password])
    }
  }

  @Test func keysAreSortedAroundPassword() throws {
    let mail = try NCMBClient.json(
      NCMBLoginRequest(attempt: NCMBLoginAttempt(field: "mailAddress", value: "a/b"), password: "p")
    )
    #expect(String(decoding: mail, as: UTF8.self) == #"{"mailAddress":"a/b","password":"p"}"#)
    let user = try NCMBClient.json(
      NCMBLoginRequest(attempt: NCMBLoginAttempt(field: "userName", value: "a"), password: "p"))
    #expect(String(decoding: user, as: UTF8.self) == #"{"password":"p","userName":"a"}"#)
  }
}
