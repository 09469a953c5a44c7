import Foundation
import Testing

@testable import HTTPReplay

/// Inputs found by `scripts/fuzz` (target har-import), kept as regression tests, and the
/// other members of their kind.
@Suite("HAR import: inputs found by fuzzing", .timeLimit(.minutes(1)))
struct HARImportFuzzRegressionTests {
  static let secret = "6145f1466ff4ef4beb6a0c4ee2a9b9e7"

  /// One HAR entry: `url`, request headers, request and response bodies (JSON text).
  struct Entry {
    var url = "https://mbaas.api.nifcloud.com/2013-09-01/login"
    var headers: [String: String] = [:]
    var requestBody: String?
    var responseBody = "{}"
  }

  static func har(_ entries: [Entry]) throws -> Data {
    let items: [[String: Any]] = entries.map { entry in
      var request: [String: Any] = [
        "method": "POST", "url": entry.url, "httpVersion": "HTTP/1.1", "cookies": [],
        "headers": entry.headers.sorted { $0.key < $1.key }.map {
          ["name": $0.key, "value": $0.value]
        },
        "queryString": [], "headersSize": -1, "bodySize": -1,
      ]
      if let body = entry.requestBody {
        request["postData"] = ["mimeType": "application/json", "text": body]
      }
      return [
        "startedDateTime": "2026-11-30T12:00:00.000Z", "time": 1, "request": request,
        "response": [
          "status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [],
          "headers": [["name": "Content-Type", "value": "application/json"]],
          "content": ["size": 2, "mimeType": "application/json", "text": entry.responseBody],
          "redirectURL": "", "headersSize": -1, "bodySize": -1,
        ],
        "cache": [:], "timings": ["send": 0, "wait": 1, "receive": 0],
      ]
    }
    let file: [String: Any] = [
      "log": ["version": "1.2", "creator": ["name": "test", "version": "1"], "entries": items]
    ]
    return try JSONSerialization.data(withJSONObject: file)
  }

  /// A value that a rule redacts (a header, a JSON token field, a query parameter) was left
  /// in every place the import had written before it met that rule: the redactor replaces
  /// values it has *already* aliased. Found by the fuzzer as an NCMB application key in a
  /// header without a name in the first entry and in `X-NCMB-Application-Key` in the second.
  /// An import has the whole file, so a value known to be secret anywhere in it is replaced
  /// everywhere, whatever comes first.
  @Test(
    "a value redacted by a later rule is redacted where it appeared earlier",
    arguments: [
      // An earlier entry, a header no rule names; then the application-key header.
      [
        Entry(headers: ["": secret]),
        Entry(headers: ["X-NCMB-Application-Key": secret]),
      ],
      // An earlier entry's response, a field no rule names; then a request's token field.
      [
        Entry(responseBody: #"{"note":"\#(secret)"}"#),
        Entry(requestBody: #"{"refreshToken":"\#(secret)"}"#),
      ],
      // The same request: its URL path (redacted first), then its body.
      [Entry(url: "https://example.com/u/\(secret)", requestBody: #"{"password":"\#(secret)"}"#)],
      // The same entry: the request body, then the response's token field.
      [Entry(requestBody: #"{"note":"\#(secret)"}"#, responseBody: #"{"idToken":"\#(secret)"}"#)],
      // An earlier header no rule names; then the `key` query parameter.
      [
        Entry(headers: ["X-Debug": secret]),
        Entry(url: "https://identitytoolkit.googleapis.com/v1/accounts:signUp?key=\(secret)"),
      ],
    ])
  func laterRuleRedactsEarlierPlaces(entries: [Entry]) throws {
    let cassette: Cassette
    do {
      cassette = try HARImporter.importHAR(data: try Self.har(entries), secrets: [])
    } catch let error as CassetteError
      where entries.contains(where: { $0.headers["", default: ""] != "" })
    {
      // A header without a name is not an HTTP token: the import now refuses the file
      // whole (replay could not send it), so nothing is written, the secret included.
      #expect("\(error)".contains("not an HTTP token"))
      return
    }
    let text = String(decoding: try cassette.encoded(), as: UTF8.self)
    #expect(!text.contains(Self.secret))
    #expect(LeakScanner.scan(try cassette.encoded(), secrets: [Self.secret]).isEmpty)
  }
}
