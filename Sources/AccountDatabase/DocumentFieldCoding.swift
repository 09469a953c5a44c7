import Foundation
import UserBackendKit

/// The JSON text of a document's fields in the `documents` table: each value an object
/// with one tag, so every ``UserBackendKit/DocumentValue`` reads back exactly.
///
/// `{"s":"text"}`, `{"i":"-9223372036854775808"}` (a decimal string: JSON numbers lose
/// 64-bit integers), `{"d":"0.1"}` (Swift's shortest round-trip text, so `-0.0`, `nan`,
/// `inf` and `-inf` survive), `{"b":true}`, `{"t":"1764504000123456"}` (microseconds since
/// 1970 as a decimal string), `{"n":true}` (null), `{"a":[…]}`, `{"m":{…}}`. Keys sorted.
enum DocumentFieldCoding {
  /// The JSON text of `fields` (which must hold no server timestamp).
  static func encode(_ fields: [String: DocumentValue]) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data = try encoder.encode(fields.mapValues(Tagged.init))
    return String(decoding: data, as: UTF8.self)
  }

  /// The fields of a stored JSON text.
  /// - Throws: ``UserStoreError/database(message:)`` for text this encoding did not write,
  ///   naming the top-level field of a timestamp outside 0001…9999 (never its value).
  static func decode(_ text: String) throws -> [String: DocumentValue] {
    // Two names that are the same text in other bytes would read as one: never merged.
    if case .sameName(let path, let first, let second)? = JSONTextCheck.firstProblem(
      Array(text.utf8))
    {
      throw UserStoreError.database(
        message: "the stored document's field \"\(fieldPath(path))\" in documents.fields has "
          + "a name twice (\(JSONTextCheck.shown(first)) and \(JSONTextCheck.shown(second))): "
          + "the database file was altered or is corrupt; delete the document or replace "
          + "the database")
    }
    do {
      return try JSONDecoder().decode([String: Tagged].self, from: Data(text.utf8))
        .mapValues(\.value)
    } catch let error as TimeOutOfRange {
      throw UserStoreError.database(
        message: "the stored document's field \"\(error.field)\" in documents.fields holds a "
          + "timestamp outside "
          + "0001-01-01…9999-12-31: the database file was altered or is corrupt; delete the "
          + "document or replace the database")
    } catch {
      throw UserStoreError.database(
        message: "a stored document's fields in documents.fields are not in the documents "
          + "table's encoding: the database file was altered or is corrupt")
    }
  }

  /// A path inside the stored text as a field path: the names, without the tags
  /// (`{"m":{"m":{"k":…}}}` → `m.k`, `{"a":{"a":[…,{"m":{"k":…}}]}}` → `a[1].k`).
  static func fieldPath(_ path: [JSONTextCheck.Component]) -> String {
    var text = ""
    var expectingName = true
    for component in path {
      switch component {
      case .member(let name) where expectingName:
        text += (text.isEmpty ? "" : ".") + name
        expectingName = false
      case .member(let tag):
        expectingName = tag == "m"
      case .index(let index):
        text += "[\(index)]"
      }
    }
    return text
  }

  /// A stored `t` value outside 0001…9999: `field` is the document's top-level name.
  struct TimeOutOfRange: Error {
    let field: String
  }

  /// One tagged value.
  struct Tagged: Codable {
    let value: DocumentValue

    init(_ value: DocumentValue) { self.value = value }

    private struct Key: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(_ string: String) { stringValue = string }
      init?(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      switch value {
      case .string(let text): try container.encode(text, forKey: Key("s"))
      case .integer(let number): try container.encode(String(number), forKey: Key("i"))
      case .double(let number): try container.encode(String(number), forKey: Key("d"))
      case .bool(let flag): try container.encode(flag, forKey: Key("b"))
      case .timestamp(let date):
        guard let micros = DocumentTimestamp.microseconds(of: date) else {
          throw EncodingError.invalidValue(
            date, .init(codingPath: [], debugDescription: "timestamp out of range"))
        }
        try container.encode(String(micros), forKey: Key("t"))
      case .null: try container.encode(true, forKey: Key("n"))
      case .array(let values): try container.encode(values.map(Tagged.init), forKey: Key("a"))
      case .map(let fields):
        try container.encode(fields.mapValues(Tagged.init), forKey: Key("m"))
      case .serverTimestamp:
        throw EncodingError.invalidValue(
          "serverTimestamp", .init(codingPath: [], debugDescription: "unresolved sentinel"))
      }
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: Key.self)
      guard container.allKeys.count == 1, let key = container.allKeys.first else {
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "one tag"))
      }
      func number<T>(_ parse: (String) -> T?) throws -> T {
        guard let parsed = parse(try container.decode(String.self, forKey: key)) else {
          throw DecodingError.dataCorruptedError(
            forKey: key, in: container, debugDescription: "not a number")
        }
        return parsed
      }
      switch key.stringValue {
      case "s": value = .string(try container.decode(String.self, forKey: key))
      case "i": value = .integer(try number { Int64($0) })
      case "d": value = .double(try number { Double($0) })
      case "b": value = .bool(try container.decode(Bool.self, forKey: key))
      case "t":
        guard
          let date = DocumentTimestamp.checkedDate(microseconds: try number { Int64($0) })
        else { throw TimeOutOfRange(field: decoder.codingPath.first?.stringValue ?? "") }
        value = .timestamp(date)
      case "n": value = .null
      case "a": value = .array(try container.decode([Tagged].self, forKey: key).map(\.value))
      case "m":
        value = .map(try container.decode([String: Tagged].self, forKey: key).mapValues(\.value))
      default:
        throw DecodingError.dataCorruptedError(
          forKey: key, in: container, debugDescription: "unknown tag")
      }
    }
  }
}
