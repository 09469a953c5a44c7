import Foundation
import HTTPReplay
import Testing

/// A cassette's own `_replay.rules` can add fields to check but never exempt one the
/// built-in rules of its backend name: a plain password is a leak whatever the file says.
@Suite("cassette lint: a file's own rules cannot exempt its secrets", .timeLimit(.minutes(1)))
struct OwnRulesCannotExemptTests {
  static func cassette(rules: String) -> Data {
    Data(
      """
      {"log": {"version": "1.2", "creator": {"name": "t", "version": "1"},
       "_replay": {"format": 1, "backend": "firebase", "contract": "sign-in", "rules": \(rules)},
       "entries": [{"startedDateTime": "2026-01-01T00:00:00.000Z", "time": 0,
         "request": {"method": "POST", "httpVersion": "HTTP/1.1",
           "url": "https://identitytoolkit.googleapis.com/v1/accounts:signInWithPassword",
           "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": -1,
           "postData": {"mimeType": "application/json",
             "text": "{\\"email\\":\\"ada@example.com\\",\\"password\\":\\"Tr0ub4dor-plain-pass\\"}"}},
         "response": {"status": 400, "statusText": "", "httpVersion": "HTTP/1.1", "headers": [],
           "cookies": [], "content": {"size": 0, "mimeType": "application/json", "text": ""},
           "redirectURL": "", "headersSize": -1, "bodySize": -1},
         "cache": {}, "timings": {"send": 0, "wait": 0, "receive": 0}}]}}
      """.utf8)
  }

  @Test(
    arguments: [
      "{}",
      #"{"jsonFields": [{"name": "password", "kind": "remove"}]}"#,
      #"{"jsonFields": [{"name": "password", "kind": "constant", "label": "Tr0ub4dor-plain-pass"}]}"#,
    ])
  func aPlainPasswordIsALeak(rules: String) {
    let findings = CassetteLinter.lint(data: Self.cassette(rules: rules), file: "x.har")
    #expect(
      findings.contains { $0.description.contains("password") && $0.description.contains("leak") },
      "\(findings.map(\.description))")
  }
}
