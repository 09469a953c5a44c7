import Foundation

/// How bodies are stored in cassettes (docs/cassettes.md §4): JSON as sorted,
/// pretty text; other UTF-8 as text; anything else as base64.
enum BodyCoding {
  /// The parsed JSON object or array when `body` is JSON (by media type or by its first
  /// byte), else `nil`.
  static func jsonObject(_ body: Data, mediaType: String) -> Any? {
    guard !body.isEmpty else { return nil }
    let first = body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    guard mediaType.contains("json") || first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    else { return nil }
    guard let object = try? JSONSerialization.jsonObject(with: body),
      object is [String: Any] || object is [Any]
    else { return nil }
    return object
  }

  /// Compact JSON with sorted keys and unescaped slashes (the canonical form).
  static func compactJSON(_ object: Any) -> Data? {
    try? JSONSerialization.data(
      withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
  }

  /// Pretty JSON with sorted keys (the stored form).
  static func prettyJSON(_ object: Any) -> String? {
    guard
      let data = try? JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
    else { return nil }
    return String(data: data, encoding: .utf8)
  }

  /// The stored text of `body` and its encoding (`"base64"` or `nil`).
  static func storedText(_ body: Data, mediaType: String) -> (text: String, encoding: String?) {
    if body.isEmpty { return ("", nil) }
    if let object = jsonObject(body, mediaType: mediaType.lowercased()),
      let pretty = prettyJSON(object)
    {
      return (pretty, nil)
    }
    if let text = String(data: body, encoding: .utf8) { return (text, nil) }
    return (body.base64EncodedString(), "base64")
  }

  /// The body bytes of stored `text` with `encoding`; `nil` for bad base64.
  static func data(text: String?, encoding: String?) -> Data? {
    guard let text else { return Data() }
    if encoding?.lowercased() == "base64" { return Data(base64Encoded: text) }
    return Data(text.utf8)
  }
}

/// `true` when a parsed JSON value is a boolean (`NSNumber` answers `is Bool` for 0 and 1
/// too, so the number's type code decides).
func isJSONBool(_ value: Any) -> Bool {
  if let number = value as? NSNumber { return String(cString: number.objCType) == "c" }
  return value is Bool
}

/// Finds signed-JWT shapes: `eyJ…` base64url, `.`, base64url, `.`, a non-empty signature.
enum SignedJWTScanner {
  static func isBase64URL(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
      || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x5F
  }

  /// Byte ranges of signed-JWT shapes in `bytes`.
  static func byteRanges(in bytes: [UInt8]) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var index = 0
    let count = bytes.count
    while index + 3 <= count {
      guard bytes[index] == 0x65, bytes[index + 1] == 0x79, bytes[index + 2] == 0x4A,
        index == 0 || !isBase64URL(bytes[index - 1])
      else {
        index += 1
        continue
      }
      var cursor = index
      var segments: [Int] = []
      while segments.count < 3 {
        let start = cursor
        while cursor < count, isBase64URL(bytes[cursor]) { cursor += 1 }
        segments.append(cursor - start)
        guard segments.count < 3 else { break }
        guard cursor < count, bytes[cursor] == 0x2E else { break }
        cursor += 1
      }
      if segments.count == 3, segments.allSatisfy({ $0 > 0 }) {
        ranges.append(index..<cursor)
        index = cursor
      } else {
        index += 1
      }
    }
    return ranges
  }

  /// Ranges of signed-JWT shapes in `text`.
  static func ranges(in text: String) -> [Range<String.Index>] {
    guard text.contains("eyJ") else { return [] }
    let utf8 = text.utf8
    return byteRanges(in: Array(utf8)).map { range in
      let lower = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
      let upper = utf8.index(utf8.startIndex, offsetBy: range.upperBound)
      return lower..<upper
    }
  }
}
