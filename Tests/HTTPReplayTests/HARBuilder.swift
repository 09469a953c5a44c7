import Foundation

@testable import HTTPReplay

/// HAR files built as JSON objects, for tests that need fields the cassette writer never
/// produces (a status of -1, a header name with a line break, a gzip body).
enum HARBuilder {
  typealias Object = [String: Any]

  static func nameValues(_ pairs: [(String, String)]) -> [Object] {
    pairs.map { ["name": $0.0, "value": $0.1] }
  }

  /// One entry; every field HAR 1.2 requires is present.
  static func entry(
    url: String = "https://identitytoolkit.googleapis.com/v1/accounts:lookup",
    requestHeaders: [(String, String)] = [("Content-Type", "application/json")],
    requestBody: Object? = nil, status: Int = 200,
    responseHeaders: [(String, String)] = [("Content-Type", "application/json")],
    content: Object = ["size": 2, "mimeType": "application/json", "text": "{}"]
  ) -> Object {
    var request: Object = [
      "method": "POST", "url": url, "httpVersion": "HTTP/1.1", "cookies": [Any](),
      "headers": nameValues(requestHeaders), "queryString": [Any](), "headersSize": -1,
      "bodySize": -1,
    ]
    if let requestBody { request["postData"] = requestBody }
    let response: Object = [
      "status": status, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [Any](),
      "headers": nameValues(responseHeaders), "content": content, "redirectURL": "",
      "headersSize": -1, "bodySize": -1,
    ]
    return [
      "startedDateTime": "2026-01-01T00:00:00.000Z", "time": 0, "request": request,
      "response": response, "cache": Object(), "timings": ["send": 0, "wait": 0, "receive": 0],
    ]
  }

  /// `{"a":"AAA…"}` of exactly `size` bytes, gzip-compressed and base64 as a HAR export
  /// holds it: a few KB in the file for MiBs decoded.
  static func gzipJSON(decodedSize: Int) -> String {
    var json = Data(#"{"a":""#.utf8)
    json.append(Data(repeating: UInt8(ascii: "A"), count: decodedSize - 8))
    json.append(Data(#""}"#.utf8))
    return ContentCoding.encode(json, coding: "gzip").base64EncodedString()
  }

  /// Response `content` holding ``gzipJSON(decodedSize:)``.
  static func gzipContent(_ base64: String) -> Object {
    ["size": 0, "mimeType": "application/json", "encoding": "base64", "text": base64]
  }

  /// Request `postData` holding ``gzipJSON(decodedSize:)``.
  static func gzipPostData(_ base64: String) -> Object {
    ["mimeType": "application/json", "_encoding": "base64", "text": base64]
  }

  static let gzipHeaders = [("Content-Type", "application/json"), ("Content-Encoding", "gzip")]

  /// A plain HAR export (no `_replay` block).
  static func export(_ entries: [Object]) throws -> Data {
    let log: Object = [
      "version": "1.2", "creator": ["name": "test", "version": "1"], "entries": entries,
    ]
    return try JSONSerialization.data(withJSONObject: ["log": log])
  }

  /// A cassette (with a valid `_replay` block) holding `entries`.
  static func cassette(_ entries: [Object]) throws -> Data {
    let empty = try Fixture.cassette([]).encoded()
    var root = try JSONSerialization.jsonObject(with: empty) as? Object ?? [:]
    var log = root["log"] as? Object ?? [:]
    log["entries"] = entries
    root["log"] = log
    return try JSONSerialization.data(withJSONObject: root)
  }
}
