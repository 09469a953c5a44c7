import BackendHTTP
import Foundation

/// A decoded JSON object from a request body, with typed, lenient field access.
///
/// Used only inside one handler call (it wraps `[String: Any]`).
struct WireObject {
  /// The fields as decoded by `JSONSerialization`.
  var fields: [String: Any]

  init(_ fields: [String: Any] = [:]) { self.fields = fields }

  /// Parses a JSON object; an empty body is an empty object.
  ///
  /// - Returns: `nil` when the body is not UTF-8 JSON or not an object.
  static func parse(_ body: Data) -> WireObject? {
    if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
      return WireObject()
    }
    guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
      return nil
    }
    return WireObject(object)
  }

  /// Parses an `application/x-www-form-urlencoded` body (`+` is a space). Later keys
  /// replace earlier ones.
  static func parseForm(_ text: String) -> WireObject {
    var fields: [String: Any] = [:]
    for (name, value) in FormURLEncoding.pairs(text, plusIsSpace: true) {
      fields[name] = value
    }
    return WireObject(fields)
  }

  /// `true` when the key is present (even as `null`).
  func has(_ key: String) -> Bool { fields[key] != nil }

  /// The first of `keys` that is present with a value that is neither a string nor JSON
  /// `null`, e.g. `"email"` for `{"email":5}`; `nil` when all are absent, `null` or strings.
  func firstNonString(among keys: [String]) -> String? {
    keys.first { key in
      guard let value = fields[key] else { return false }
      return !(value is String) && !(value is NSNull)
    }
  }

  /// The first of `keys` that is present with a value ``bool(_:)`` does not read and that
  /// is not JSON `null`, e.g. `"returnSecureToken"` for `{"returnSecureToken":1}`; `nil`
  /// when all are absent, `null` or booleans.
  func firstNonBoolean(among keys: [String]) -> String? {
    keys.first { key in
      guard let value = fields[key], !(value is NSNull) else { return false }
      return bool(key) == nil
    }
  }

  /// A string field; numbers and booleans are not converted.
  func string(_ key: String) -> String? { fields[key] as? String }

  /// The first present string among `keys` (for snake_case / camelCase aliases).
  func string(anyOf keys: String...) -> String? {
    keys.lazy.compactMap { fields[$0] as? String }.first
  }

  /// A boolean field (`true`/`false`, or the strings `"true"`/`"false"`); a number (`1`,
  /// `0`) is not one (``JSONBoolean``).
  func bool(_ key: String) -> Bool? {
    if let value = JSONBoolean.value(fields[key]) { return value }
    if let value = fields[key] as? String {
      return value == "true" ? true : value == "false" ? false : nil
    }
    return nil
  }

  /// An array of strings; non-strings are skipped.
  func strings(_ key: String) -> [String] {
    (fields[key] as? [Any])?.compactMap { $0 as? String } ?? []
  }

  /// A nested object.
  func object(_ key: String) -> WireObject? {
    (fields[key] as? [String: Any]).map(WireObject.init)
  }
}

/// Building JSON responses.
enum WireResponse {
  /// `status` with a JSON body (sorted keys, so bytes are deterministic).
  static func json(_ status: Int, _ object: [String: Any], headers: HTTPFields = [:])
    -> HTTPResponse
  {
    let body =
      (try? JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    var fields = headers
    fields["Content-Type"] = "application/json; charset=UTF-8"
    return HTTPResponse(status: status, headerFields: fields, body: body)
  }

  /// A JSON `null` for use as a dictionary value.
  static var null: Any { NSNull() }
}

extension HTTPRequest {
  /// The value of query parameter `name` (percent-decoded, `+` as space), or `nil`.
  func queryValue(_ name: String) -> String? {
    guard let query = rawQuery else { return nil }
    return WireObject.parseForm(query).string(name)
  }

  /// The `Content-Type` media type, lower-cased, without parameters.
  var mediaType: String {
    let value = headerFields["Content-Type"] ?? ""
    return value.split(separator: ";").first.map { $0.trimmingSpaces().lowercased() } ?? ""
  }

  /// The path with percent-escapes decoded, for routing only.
  var decodedPath: String { rawPath.removingPercentEncoding ?? rawPath }
}
