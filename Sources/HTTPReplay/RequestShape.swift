import BackendHTTP
import Foundation

/// The canonical form of a redacted request used for matching (docs/cassettes.md
/// §6): method, host (no scheme or port) and path, query parameters decoded and sorted,
/// the body canonicalised (JSON with sorted keys, form fields sorted, other bodies as text),
/// and the rules' semantic header fields.
struct RequestShape: Sendable, Hashable {
  var method: String
  var host: String
  var path: String
  var query: [Pair]
  var body: Body
  var headers: [Pair]
  /// The dictionary key: every part joined with separators that cannot occur in them.
  let key: String

  struct Pair: Sendable, Hashable, Comparable {
    var name: String
    var value: String
    static func < (lhs: Pair, rhs: Pair) -> Bool { (lhs.name, lhs.value) < (rhs.name, rhs.value) }
  }

  enum Body: Sendable, Hashable {
    case none
    case json(String)
    case form([Pair])
    /// `multipart/form-data` parts as `name` (empty when unnamed) -> value text, in order:
    /// the boundary, which senders choose at random per request, is not compared.
    case multipart([Pair])
    case text(String)

    var keyText: String {
      switch self {
      case .none: ""
      case .json(let text): "json:" + text
      case .form(let pairs): "form:" + pairs.map { $0.name + "=" + $0.value }.joined(separator: "&")
      case .multipart(let pairs):
        "multipart:" + pairs.map { $0.name + "=" + $0.value }.joined(separator: "\u{1E}")
      case .text(let text): "text:" + text
      }
    }
  }

  init(_ request: HTTPRequest, matchHeaders: [String]) {
    method = request.method.rawValue
    host = request.url.host?.lowercased() ?? ""
    path = request.rawPath
    query = FormURLEncoding.pairs(request.rawQuery ?? "", plusIsSpace: false)
      .map { Pair(name: $0.0, value: $0.1) }.sorted()
    if request.body.isEmpty {
      body = .none
    } else {
      // What the body is: the rule redaction and lint read it by (``BodyType``).
      switch BodyType.read(request.body, mediaType: request.headerFields["Content-Type"] ?? "") {
      case .json(let object):
        body =
          BodyCoding.compactJSON(object).map { .json(String(decoding: $0, as: UTF8.self)) }
          ?? .text("base64:" + request.body.base64EncodedString())
      case .multipart(let multipart):
        body = .multipart(
          multipart.parts.map {
            Pair(
              name: $0.name ?? "", value: String(decoding: multipart.value(of: $0), as: UTF8.self))
          })
      case .form(let text):
        body = .form(
          FormURLEncoding.pairs(text, plusIsSpace: true).map { Pair(name: $0.0, value: $0.1) }
            .sorted())
      case .text(let text): body = .text(text)
      case .binary: body = .text("base64:" + request.body.base64EncodedString())
      }
    }
    headers = matchHeaders.map { name in
      Pair(name: name.lowercased(), value: request.headerFields[name] ?? "")
    }
    let separator = "\u{1F}"
    key = [
      method, host + path, query.map { $0.name + "=" + $0.value }.joined(separator: "&"),
      body.keyText, headers.map { $0.name + ":" + $0.value }.joined(separator: "\n"),
    ].joined(separator: separator)
  }

  /// `POST identitytoolkit.googleapis.com/v1/accounts:signUp`.
  var summary: String { "\(method) \(host)\(path)" }

  /// Every comparable field as `name -> value` (`method`, `host`, `path`, `query.key`,
  /// `body.email`, `body.items[0]`, `header.authorization`).
  var fields: [String: String] {
    var result: [String: String] = ["method": method, "host": host, "path": path]
    for (name, values) in Dictionary(grouping: query, by: \.name) {
      result["query." + name] = values.map(\.value).joined(separator: ", ")
    }
    switch body {
    case .none: break
    case .json(let text):
      if let object = try? JSONSerialization.jsonObject(
        with: Data(text.utf8), options: [.fragmentsAllowed])
      {
        flatten(object, path: "body", into: &result)
      }
    case .form(let pairs), .multipart(let pairs):
      for (name, values) in Dictionary(grouping: pairs, by: \.name) {
        result["body." + name] = values.map(\.value).joined(separator: ", ")
      }
    case .text(let text): result["body"] = text
    }
    for header in headers { result["header." + header.name] = header.value }
    return result
  }

  private func flatten(_ value: Any, path: String, into result: inout [String: String]) {
    if let object = value as? [String: Any], !object.isEmpty {
      for (key, child) in object { flatten(child, path: path + "." + key, into: &result) }
    } else if let array = value as? [Any], !array.isEmpty {
      for (index, child) in array.enumerated() {
        flatten(child, path: path + "[\(index)]", into: &result)
      }
    } else if let data = try? JSONSerialization.data(
      withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes])
    {
      result[path] = String(decoding: data, as: UTF8.self)
    }
  }

  /// The fields that differ between a recorded shape (`self`) and a live one, sorted by
  /// field name with method, host and path first.
  func differences(from live: RequestShape) -> [FieldDifference] {
    let recorded = fields
    let current = live.fields
    let order = ["method": 0, "host": 1, "path": 2]
    let names = Set(recorded.keys).union(current.keys).sorted {
      (order[$0] ?? 3, $0) < (order[$1] ?? 3, $1)
    }
    return names.compactMap { name in
      recorded[name] == current[name]
        ? nil : FieldDifference(field: name, recorded: recorded[name], live: current[name])
    }
  }
}
