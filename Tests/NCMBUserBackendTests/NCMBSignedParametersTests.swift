import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import NCMBSigning

/// `NCMBSignature.signedParameters` now splits the query on the UTF-8 bytes and compares
/// keys as byte slices. These pin it to the old algorithm, re-implemented here: split by
/// `Character` at `&` (empty pairs dropped), the key up to the first `=`, a stable sort by
/// the key's bytes.
@Suite(.timeLimit(.minutes(1))) struct NCMBSignedParametersTests {
  static let applicationKey = Fixture.applicationKey
  static let timestamp = Fixture.timestamp

  /// The old `PARAMS` line.
  static func oldParameters(query: String?) -> String {
    var pairs = [
      "SignatureMethod=HmacSHA256", "SignatureVersion=2",
      "X-NCMB-Application-Key=\(applicationKey)", "X-NCMB-Timestamp=\(timestamp)",
    ]
    if let query {
      pairs += query.split(separator: "&", omittingEmptySubsequences: true).map(String.init)
    }
    let keyed = pairs.enumerated().map { pair in
      let key = pair.element.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      return (key: Array(key[0].utf8), offset: pair.offset, element: pair.element)
    }
    let sorted = keyed.sorted { lhs, rhs in
      if lhs.key != rhs.key { return lhs.key.lexicographicallyPrecedes(rhs.key) }
      return lhs.offset < rhs.offset
    }
    return sorted.map(\.element).joined(separator: "&")
  }

  static func newParameters(query: String?) -> String {
    NCMBSignature.signedParameters(
      applicationKey: applicationKey, timestamp: timestamp, query: query)
  }

  /// Wire queries (percent-encoded ASCII) of every shape the split must keep.
  static let queries: [String?] = [
    nil, "", "&", "&&", "=", "==", "a=1", "a=1&&b=2", "&a=1", "a=1&", "&&a=1&&",
    "b=2&a=1&b=1&a=0", "a=3&a=1&a=2", "a", "a&b", "b&a", "a=&b=", "=x&=y", "=y&=x&a",
    "a-b=1&ab=2&a=3&a.b=4&a_b=5&A=6&a%20b=7&a~=8", "ab=1&a=2&a-b=3", "a=1=2&a==3&a",
    "%E3%81%82=1&%41=2&a%20b=3&%7E=4", "where=%7B%22a%22%3A1%7D&limit=10&order=-createDate",
    "p=q&r=t&s", "SignatureMethod=x&Signature=y&X-NCMB-Application-Key=z&X-NCMB=w&x-ncmb=v",
    "X-NCMB-Timestamp=early&SignatureVersion=1", "z=1&y=2&x=3&w=4&v=5&u=6&t=7",
    "count=1&skip=0&limit=1000&include=user&keys=objectId%2CuserName",
  ]

  @Test(arguments: queries)
  func parametersEqualTheCharacterAlgorithm(query: String?) {
    #expect(Self.newParameters(query: query) == Self.oldParameters(query: query))
  }

  /// Non-ASCII text where every `&` and `=` is its own `Character` (a caller of the public
  /// `stringToSign(method:fqdn:path:query:…)` may pass one).
  @Test(arguments: ["é=1&a=2", "a=é&é=a", "😀=1&👩‍👩‍👧=2&a=3", "ü&u&ü=1", "ǅ=1&Ǆ=2"])
  func nonASCIIQueriesEqualTheCharacterAlgorithm(query: String) {
    #expect(Self.newParameters(query: query) == Self.oldParameters(query: query))
  }

  /// A combining mark after `&` or `=` hides it from a `Character` split; the byte split
  /// sees it. A wire query is percent-encoded ASCII (`HTTPRequest.rawQuery`), so only a
  /// caller passing raw text to the public `stringToSign(method:fqdn:path:query:…)` can
  /// meet this; the byte split is the split of the bytes that are signed.
  @Test(arguments: [
    ("a=1&\u{301}x=2&b=3", "&a=1&b=3&\u{301}x=2", "&a=1&\u{301}x=2&b=3"),
    ("b=\u{301}a&b=z", "&b=\u{301}a&b=z", "&b=z&b=\u{301}a"),
  ])
  func aMarkGluedToASeparatorIsSplitOnTheBytes(query: String, new: String, old: String) {
    let fixed =
      "SignatureMethod=HmacSHA256&SignatureVersion=2"
      + "&X-NCMB-Application-Key=\(Self.applicationKey)&X-NCMB-Timestamp=\(Self.timestamp)"
    #expect(Self.newParameters(query: query) == fixed + new)
    #expect(Self.oldParameters(query: query) == fixed + old)
  }

  /// The whole signature of a GET over each query, against an HMAC of the old string to
  /// sign computed here.
  @Test(arguments: queries.compactMap { $0 }.filter { !$0.isEmpty })
  func signatureOverTheQueryEqualsTheOldStringToSign(query: String) throws {
    let url = try #require(
      URL(string: "https://mbaas.api.nifcloud.com/2013-09-01/classes/Item?" + query))
    let request = HTTPRequest(method: .get, url: url)
    let signature = NCMBSignature.sign(
      request: request, applicationKey: Self.applicationKey, clientKey: Fixture.clientKey,
      timestamp: Self.timestamp)
    let oldText =
      "GET\nmbaas.api.nifcloud.com\n/2013-09-01/classes/Item\n"
      + Self.oldParameters(query: query)
    #expect(signature == Fixture.hmac(oldText))
  }
}
