import Foundation

/// The top-level members of a JSON object read from its bytes, each name in its own
/// bytes (two names that are the same text in other bytes stay two) with its value's
/// JSON text undecoded.
///
/// For repairing what cannot be read as a whole: a user object holding one name in two
/// spellings, or one member this client cannot read, is still an object whose members
/// can be named (to remove them in their own bytes) when `JSONSerialization` (which keys
/// a Swift dictionary, merging the spellings) or a field decoder refuses it.
package enum JSONObjectMembers {
  /// One member: its decoded name and its value's JSON text.
  package struct Member: Sendable {
    /// The name, decoded (escapes resolved), in the bytes the text gives.
    package var name: String
    /// The value's JSON text, undecoded.
    package var value: Data
  }

  /// The members of the JSON object `bytes` holds, in their order, or `nil` when `bytes`
  /// is not one JSON object (leading and trailing whitespace allowed). Values are
  /// skipped by their brackets and strings, not validated.
  package static func members(_ bytes: Data) -> [Member]? {
    var scanner = Scanner(bytes: Array(bytes))
    return scanner.object()
  }

  private struct Scanner {
    let bytes: [UInt8]
    var index = 0

    func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipSpace() {
      while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
        index += 1
      }
    }

    mutating func object() -> [Member]? {
      skipSpace()
      guard peek() == UInt8(ascii: "{") else { return nil }
      index += 1
      var members: [Member] = []
      skipSpace()
      if peek() == UInt8(ascii: "}") {
        index += 1
        return finished(members)
      }
      while true {
        skipSpace()
        guard peek() == UInt8(ascii: "\"") else { return nil }
        let start = index
        guard skipString(), let name = Self.decodeString(bytes[start..<index]) else { return nil }
        skipSpace()
        guard peek() == UInt8(ascii: ":") else { return nil }
        index += 1
        skipSpace()
        let valueStart = index
        guard skipValue() else { return nil }
        members.append(Member(name: name, value: Data(bytes[valueStart..<index])))
        skipSpace()
        switch peek() {
        case UInt8(ascii: ","): index += 1
        case UInt8(ascii: "}"):
          index += 1
          return finished(members)
        default: return nil
        }
      }
    }

    mutating func finished(_ members: [Member]) -> [Member]? {
      skipSpace()
      return index == bytes.count ? members : nil
    }

    /// Past a string (at its opening quote); `false` when it does not end.
    mutating func skipString() -> Bool {
      index += 1
      while let byte = peek() {
        index += 1
        if byte == UInt8(ascii: "\\") {
          index += 1
        } else if byte == UInt8(ascii: "\"") {
          return true
        }
      }
      return false
    }

    /// Past one value: a string, or everything up to the bracket closing an object or
    /// array, or a scalar token up to `,`, `}` or whitespace.
    mutating func skipValue() -> Bool {
      var depth = 0
      let start = index
      while let byte = peek() {
        switch byte {
        case UInt8(ascii: "\""):
          guard skipString() else { return false }
          if depth == 0 { return true }
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          depth += 1
          index += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          if depth == 0 { return index > start }
          depth -= 1
          index += 1
          if depth == 0 { return true }
        case UInt8(ascii: ","), 0x20, 0x09, 0x0A, 0x0D:
          if depth == 0 { return index > start }
          index += 1
        default:
          index += 1
        }
      }
      return depth == 0 && index > start
    }

    /// A JSON string's text (quotes included) decoded; `JSONSerialization` reads one
    /// string alone, which it cannot merge with anything.
    static func decodeString(_ text: ArraySlice<UInt8>) -> String? {
      try? JSONSerialization.jsonObject(with: Data(text), options: [.fragmentsAllowed])
        as? String
    }
  }
}
