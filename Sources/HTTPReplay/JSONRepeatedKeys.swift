import Foundation

/// Finds an object key that appears twice in one object of a JSON text.
///
/// JSON leaves repeated keys undefined (RFC 8259 §4) and Foundation's two readers disagree:
/// `JSONSerialization` (lint, import's structure check) keeps the last value,
/// `JSONDecoder` (loading, replay, import's reading) the first. A cassette or HAR file
/// with a repeated key would mean one thing to `cassette lint` and another to replay (a
/// secret in the copy only replay reads passes the lint), so every reader refuses it:
/// ``Cassette/decode(_:)``, ``HARImporter``, ``CassetteLinter``. Keys are compared as
/// Swift strings compare them, the comparison both readers' dictionaries make.
enum JSONRepeatedKeys {
  /// The reason given for a repeated key.
  static let reason =
    "the key appears more than once in its object; JSON readers disagree on which one "
    + "counts, so the file is refused"

  /// The path (`log.entries[0].request.postData.text`) of the first key that repeats in
  /// its object, or `nil`. `data` must be JSON that a reader has accepted.
  static func first(in data: Data) -> String? {
    data.withUnsafeBytes { raw in first(in: raw.bindMemory(to: UInt8.self)) }
  }

  private static func first(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
    // One frame per open object or array: its keys so far, the current key or index.
    var isObject: [Bool] = []
    var keys: [Set<String>] = []
    var names: [String] = []
    var indices: [Int] = []
    var expectingKey = false
    var index = 0
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "{"):
        isObject.append(true)
        keys.append([])
        names.append("")
        indices.append(0)
        expectingKey = true
      case UInt8(ascii: "["):
        isObject.append(false)
        keys.append([])
        names.append("")
        indices.append(0)
        expectingKey = false
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        guard !isObject.isEmpty else { return nil }
        isObject.removeLast()
        keys.removeLast()
        names.removeLast()
        indices.removeLast()
        expectingKey = false
      case UInt8(ascii: ","):
        if isObject.last == false {
          indices[indices.count - 1] += 1
        } else {
          expectingKey = true
        }
      case UInt8(ascii: "\""):
        let start = index + 1
        var end = start
        var escaped = false
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
          if bytes[end] == UInt8(ascii: "\\") {
            escaped = true
            end += 1
          }
          end += 1
        }
        if expectingKey, isObject.last == true {
          let key = decodedKey(
            UnsafeBufferPointer(rebasing: bytes[start..<min(end, bytes.count)]), escaped)
          let top = keys.count - 1
          if !keys[top].insert(key).inserted {
            let parent = path(isObject: isObject, names: names, indices: indices)
            return parent.isEmpty ? key : parent + "." + key
          }
          names[top] = key
          expectingKey = false
        }
        index = end
      default: break
      }
      index += 1
    }
    return nil
  }

  /// A key's text: the bytes as UTF-8, escapes (`\u0078`) undone.
  private static func decodedKey(_ bytes: UnsafeBufferPointer<UInt8>, _ escaped: Bool) -> String {
    let raw = String(decoding: bytes, as: UTF8.self)
    guard escaped,
      let decoded = try? JSONSerialization.jsonObject(
        with: Data(("\"" + raw + "\"").utf8), options: .fragmentsAllowed) as? String
    else { return raw }
    return decoded
  }

  /// The path of the innermost open object, from the root.
  private static func path(isObject: [Bool], names: [String], indices: [Int]) -> String {
    var text = ""
    // The last frame is the object holding the repeated key: its parents name it.
    for frame in 0..<(isObject.count - 1) {
      if isObject[frame] {
        text += (text.isEmpty ? "" : ".") + names[frame]
      } else {
        text += "[\(indices[frame])]"
      }
    }
    return text
  }
}
