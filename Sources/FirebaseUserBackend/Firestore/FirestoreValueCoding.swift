import Foundation
import UserBackendKit

/// One Firestore REST `Value` (typed JSON), as the adapter writes and reads it:
///
/// | ``DocumentValue`` | wire |
/// |---|---|
/// | `.string(s)` | `{"stringValue": s}` |
/// | `.integer(n)` | `{"integerValue": "n"}`: a decimal string of the Int64 |
/// | `.double(d)` | `{"doubleValue": d}`; NaN and ±infinity as `"NaN"`, `"Infinity"`, `"-Infinity"` |
/// | `.bool(b)` | `{"booleanValue": b}` |
/// | `.timestamp(t)` | `{"timestampValue": "2026-11-30T12:00:00.123456Z"}`: RFC 3339 UTC, microseconds |
/// | `.null` | `{"nullValue": null}` |
/// | `.array(a)` | `{"arrayValue": {"values": […]}}`; empty: `{"arrayValue": {}}` |
/// | `.map(m)` | `{"mapValue": {"fields": {…}}}`; empty: `{"mapValue": {}}` |
///
/// Reading also accepts the types ``DocumentValue`` has no case for, which other clients
/// (the console, the SDKs) can store: `geoPointValue` becomes `.map(["latitude": .double,
/// "longitude": .double])`, `referenceValue` a `.string` of the resource name and
/// `bytesValue` a `.string` of its base64 text. Writing such a value back stores the
/// portable type, not the original one. An `integerValue` that is not an Int64, a
/// timestamp that is not RFC 3339, an unknown value type or an object with no or several
/// value keys is a decoding error (the adapter's `.malformedResponse`).
/// ``DocumentValue/serverTimestamp`` is never encoded as a value: it becomes a
/// `REQUEST_TIME` transform (see ``FirestoreWrite``).
struct FirestoreValue: Codable, Sendable, Hashable {
  /// The portable value.
  var value: DocumentValue

  /// Wraps a value.
  init(_ value: DocumentValue) { self.value = value }

  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  private struct ArrayBody: Codable {
    var values: [FirestoreValue]?
  }

  private struct MapBody: Codable {
    var fields: [String: FirestoreValue]?
  }

  private struct GeoPoint: Codable {
    var latitude: Double?
    var longitude: Double?
  }

  /// Reads one typed value.
  /// - Throws: `DecodingError` as described on the type.
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Key.self)
    guard container.allKeys.count == 1, let key = container.allKeys.first else {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath,
          debugDescription: "a Firestore value has exactly one value key"))
    }
    func corrupt(_ reason: String) -> DecodingError {
      .dataCorrupted(.init(codingPath: decoder.codingPath + [key], debugDescription: reason))
    }
    switch key.stringValue {
    case "stringValue":
      value = .string(try container.decode(String.self, forKey: key))
    case "integerValue":
      // proto3 JSON writes int64 as a string; a number is accepted too.
      if let text = try? container.decode(String.self, forKey: key) {
        guard let number = Int64(text) else { throw corrupt("integerValue is not an Int64") }
        value = .integer(number)
      } else {
        value = .integer(try container.decode(Int64.self, forKey: key))
      }
    case "doubleValue":
      if let text = try? container.decode(String.self, forKey: key) {
        switch text {
        case "NaN": value = .double(.nan)
        case "Infinity": value = .double(.infinity)
        case "-Infinity": value = .double(-.infinity)
        default:
          guard let number = DecimalText.jsonNumber(text) else {
            throw corrupt(
              JSONTextCheck.firstProblem(Array(text.utf8)).map { "doubleValue: \($0.reason)" }
                ?? "doubleValue is not a number")
          }
          value = .double(number)
        }
      } else {
        value = .double(try container.decode(Double.self, forKey: key))
      }
    case "booleanValue":
      value = .bool(try container.decode(Bool.self, forKey: key))
    case "timestampValue":
      let text = try container.decode(String.self, forKey: key)
      guard let date = DocumentTimestamp.parse(text) else {
        throw corrupt("timestampValue is not an RFC 3339 timestamp")
      }
      value = .timestamp(date)
    case "nullValue":
      value = .null
    case "arrayValue":
      let body = try container.decode(ArrayBody.self, forKey: key)
      value = .array((body.values ?? []).map(\.value))
    case "mapValue":
      let body = try container.decode(MapBody.self, forKey: key)
      value = .map((body.fields ?? [:]).mapValues(\.value))
    case "geoPointValue":
      let point = try container.decode(GeoPoint.self, forKey: key)
      value = .map([
        "latitude": .double(point.latitude ?? 0), "longitude": .double(point.longitude ?? 0),
      ])
    case "referenceValue", "bytesValue":
      value = .string(try container.decode(String.self, forKey: key))
    default:
      throw corrupt("unknown Firestore value type")
    }
  }

  /// Writes one typed value.
  /// - Throws: `EncodingError` for ``DocumentValue/serverTimestamp``, which is a transform.
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    switch value {
    case .string(let text): try container.encode(text, forKey: Key("stringValue"))
    case .integer(let number): try container.encode(String(number), forKey: Key("integerValue"))
    case .double(let number): try container.encode(number, forKey: Key("doubleValue"))
    case .bool(let flag): try container.encode(flag, forKey: Key("booleanValue"))
    case .timestamp(let date):
      guard let text = DocumentTimestamp.rfc3339(date) else {
        throw EncodingError.invalidValue(
          value,
          .init(
            codingPath: encoder.codingPath,
            debugDescription: "a timestamp outside 0001-01-01 … 9999-12-31"))
      }
      try container.encode(text, forKey: Key("timestampValue"))
    case .null: try container.encodeNil(forKey: Key("nullValue"))
    case .array(let values):
      try container.encode(
        ArrayBody(values: values.isEmpty ? nil : values.map(FirestoreValue.init)),
        forKey: Key("arrayValue"))
    case .map(let entries):
      try container.encode(
        MapBody(fields: entries.isEmpty ? nil : entries.mapValues(FirestoreValue.init)),
        forKey: Key("mapValue"))
    case .serverTimestamp:
      throw EncodingError.invalidValue(
        value,
        .init(
          codingPath: encoder.codingPath,
          debugDescription: "a server timestamp is written as a REQUEST_TIME transform"))
    }
  }
}

/// Field paths of `updateMask` and transforms, and the split of a write into stored
/// values and `REQUEST_TIME` transforms.
enum FirestoreFieldPath {
  /// One segment of a field path: a name of ASCII letters, digits and `_` that does not
  /// start with a digit stays as is; any other is quoted in backquotes, with `\` and `` ` ``
  /// escaped by a backslash (`` `display name` ``, `` `a.b` ``, `` `x\`y` ``). Firestore reads
  /// a path per code point, so the escape is decided per Unicode scalar: a `\` or `` ` ``
  /// followed by a combining mark (one Swift `Character`) is still escaped.
  static func segment(_ name: String) -> String {
    let simple =
      !name.isEmpty
      && name.utf8.enumerated().allSatisfy { index, byte in
        byte == 0x5F || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
          || (index > 0 && (0x30...0x39).contains(byte))
      }
    if simple { return name }
    var quoted = String.UnicodeScalarView()
    quoted.append("`")
    for scalar in name.unicodeScalars {
      if scalar == "\\" || scalar == "`" { quoted.append("\\") }
      quoted.append(scalar)
    }
    quoted.append("`")
    return String(quoted)
  }

  /// The segments joined by `.`.
  static func path(_ segments: [String]) -> String {
    segments.map(segment).joined(separator: ".")
  }

  /// Splits fields into the values to store and the field paths (as segments) of every
  /// ``DocumentValue/serverTimestamp``, also inside maps, which is removed from its map.
  static func split(_ fields: [String: DocumentValue]) -> (
    values: [String: DocumentValue], serverTimestamps: [[String]]
  ) {
    var values: [String: DocumentValue] = [:]
    var paths: [[String]] = []
    for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
      if let kept = strip(value, at: [name], into: &paths) { values[name] = kept }
    }
    return (values, paths)
  }

  private static func strip(_ value: DocumentValue, at path: [String], into paths: inout [[String]])
    -> DocumentValue?
  {
    switch value {
    case .serverTimestamp:
      paths.append(path)
      return nil
    case .map(let entries):
      var kept: [String: DocumentValue] = [:]
      for (key, entry) in entries.sorted(by: { $0.key < $1.key }) {
        if let value = strip(entry, at: path + [key], into: &paths) { kept[key] = value }
      }
      return .map(kept)
    default:
      return value
    }
  }

  /// Puts `timestamp` at `path` (segments) inside `fields`, creating maps on the way.
  static func insert(
    _ timestamp: DocumentValue, at path: ArraySlice<String>,
    into fields: inout [String: DocumentValue]
  ) {
    guard let first = path.first else { return }
    if path.count == 1 {
      fields[first] = timestamp
      return
    }
    var nested: [String: DocumentValue] = [:]
    if case .map(let existing) = fields[first] { nested = existing }
    insert(timestamp, at: path.dropFirst(), into: &nested)
    fields[first] = .map(nested)
  }
}
