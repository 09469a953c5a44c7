import NCMBSigning
import BackendHTTP
import Foundation
import NCMBUserBackend
import Testing
import UserBackendKit

/// Issue 21 item 10: a hand-written query is encoded once, as the adapter encodes it, and
/// the server side refuses a signature over a non-canonical encoding.
@Suite("NCMBSignature.canonicalQuery and canonical escapes", .timeLimit(.minutes(1)))
struct NCMBCanonicalQueryTests {
  static let docAppKey = "6145f91061916580c742f806bab67649d10f45920246ff459404c46f00ff3e56"
  static let docClientKey = "1343d198b510a0315db1c03f3aa0e32418b7a743f8e4b47cbff670601345cf75"
  static let documented = "where=%7B%22testKey%22%3A%22testValue%22%7D"

  @Test(
    "the documented query, written any way, is encoded as documented and signs as documented",
    arguments: [
      #"where={"testKey":"testValue"}"#,
      "where=%7B%22testKey%22%3A%22testValue%22%7D",
      "where=%7b%22testKey%22%3a%22testValue%22%7d",
      #"where=%7B"testKey":%22testValue%22}"#,
      #"where={"testKey"%3a"testValue"}"#,
    ])
  func documentedQuery(_ raw: String) throws {
    let query = try NCMBSignature.canonicalQuery(raw)
    #expect(query == Self.documented)
    let url = try #require(
      URL(string: "https://mbaas.api.nifcloud.com/2013-09-01/classes/TestClass?" + query))
    let signature = NCMBSignature.sign(
      request: HTTPRequest(method: .get, url: url), applicationKey: Self.docAppKey,
      clientKey: Self.docClientKey, timestamp: "2013-12-02T02:44:35.452Z")
    #expect(signature == "AltGkQgXurEV7u0qMd+87ud7BKuueldoCjaMgVc9Bes=")
  }

  @Test(
    "+ is a literal plus and & inside a JSON value stays in the value",
    arguments: [
      (#"where={"n":"1+2"}"#, [("where", #"{"n":"1+2"}"#)]),
      ("q=a+b", [("q", "a+b")]),
      ("q=a%2Bb", [("q", "a+b")]),
      ("q=a b", [("q", "a b")]),
      (#"where={"name":"a&b"}&limit=3"#, [("where", #"{"name":"a&b"}"#), ("limit", "3")]),
      (#"where={"k":["x&y",{"z":"&"}]}"#, [("where", #"{"k":["x&y",{"z":"&"}]}"#)]),
      (#"where={"q":"say \"&\" now"}"#, [("where", #"{"q":"say \"&\" now"}"#)]),
      ("p=q&r=t&s", [("p", "q"), ("r", "t"), ("s", "")]),
      ("a=1&&b=x=y", [("a", "1"), ("b", "x=y")]),
      ("name=%C3%A9&raw=é", [("name", "é"), ("raw", "é")]),
    ])
  func siblings(_ raw: String, _ expected: [(String, String)]) throws {
    let query = try NCMBSignature.canonicalQuery(raw)
    // What the service reads back (a form decoder: + is a space) is what was meant.
    let decoded = FormURLEncoding.pairs(query, plusIsSpace: true)
    #expect(decoded.map(\.0) == expected.map(\.0))
    #expect(decoded.map(\.1) == expected.map(\.1))
    #expect(!query.contains("+"))
    #expect(NCMBSignature.hasOnlyCanonicalEscapes(query))
  }

  @Test("a value-less parameter stays value-less")
  func valueLess() throws {
    #expect(try NCMBSignature.canonicalQuery("p=q&r=t&s") == "p=q&r=t&s")
  }

  @Test(
    "a lone or malformed % and non-UTF-8 escapes are refused, naming the query",
    arguments: ["q=100%", "q=%zz", "q=%4", "q=%FF%FE"])
  func malformed(_ raw: String) {
    #expect {
      try NCMBSignature.canonicalQuery(raw)
    } throws: { error in
      guard case .invalidInput(let field, _) = (error as? UserBackendError)?.code else {
        return false
      }
      return field == "query"
    }
  }

  /// A request signed over exactly `url` (so only the encoding can be wrong).
  func signedRequest(_ method: HTTPMethod, _ url: String) throws -> HTTPRequest {
    let request = HTTPRequest(method: method, url: try #require(URL(string: url)))
    var signed = request
    signed.headerFields = [
      "X-NCMB-Application-Key": Fixture.applicationKey,
      "X-NCMB-Timestamp": Fixture.timestamp,
      "X-NCMB-Signature": NCMBSignature.sign(
        request: request, applicationKey: Fixture.applicationKey, clientKey: Fixture.clientKey,
        timestamp: Fixture.timestamp),
    ]
    return signed
  }

  @Test(
    "a signature over lower-case or malformed escapes is refused, in the query and the path",
    arguments: [
      "https://h.example/2013-09-01/classes/T?where=%7b%22k%22%3a%22v%22%7d",
      "https://h.example/2013-09-01/classes/T?where=%7B%22k%22%3a%22v%22%7D",
      "https://h.example/2013-09-01/users/a%2fb",
      "https://h.example/2013-09-01/login?userName=a%e9",
    ])
  func nonCanonicalRefused(_ url: String) throws {
    let request = try signedRequest(.get, url)
    #expect(throws: NCMBSignatureFailure.nonCanonicalEncoding) {
      try NCMBSignature.validate(request: request, clientKey: Fixture.clientKey)
    }
    let canonical = try signedRequest(.get, Self.upperCased(url))
    #expect(NCMBSignature.verify(request: canonical, clientKey: Fixture.clientKey))
  }

  @Test("a POST's unsigned query is not judged")
  func postQueryNotJudged() throws {
    let request = try signedRequest(.post, "https://h.example/2013-09-01/users?x=%7b")
    #expect(NCMBSignature.verify(request: request, clientKey: Fixture.clientKey))
  }

  /// `url` with the hex digits of its escapes upper-cased.
  static func upperCased(_ url: String) -> String {
    var result = ""
    var pending = 0
    for character in url {
      if pending > 0 {
        result += character.uppercased()
        pending -= 1
      } else {
        result.append(character)
        if character == "%" { pending = 2 }
      }
    }
    return result
  }
}
