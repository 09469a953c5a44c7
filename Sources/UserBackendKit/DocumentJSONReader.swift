/// Reads one JSON text (RFC 8259) as a ``UserBackendKit/DocumentValue``, keeping the
/// number's written form: digits only (with an optional minus) that fit in 64 bits are an
/// `.integer`; a number with a fraction or an exponent (`2.0`, `1e3`) or too large for 64
/// bits is a `.double`. Strings are strings (never timestamps), objects are `.map`. A
/// number a double cannot hold is refused (``Outcome/unusable(reason:)``): one too large
/// (`1e400`, infinity) and one too small (`1e-400`, which would read as 0).
///
/// Strict where readers disagree, so that one text has one reading: a member name given
/// twice in an object is ``Outcome/unusable(reason:)``, also in other bytes of the same
/// text (canonically equivalent Unicode, which a Swift dictionary takes for one key), and
/// only UTF-8 without a byte order
/// mark is read (RFC 8259 §8.1). Used by `baas doc set` for field values and by the ID
/// token verifier for a token's header and claims.
package enum DocumentJSONReader {
  /// How deep arrays and objects may nest (Firestore allows 20 levels of maps).
  package static let maximumDepth = 32

  /// What reading `text` gave.
  package enum Outcome: Equatable, Sendable {
    /// `text` is one JSON value.
    case value(DocumentValue)
    /// `text` is not JSON.
    case notJSON
    /// `text` is JSON that cannot be a field value; `reason` says why.
    case unusable(reason: String)
  }

  /// Reads `text`, which must be one JSON value with optional white space around it.
  package static func read(_ text: String) -> Outcome { read(utf8: Array(text.utf8)) }

  /// Reads UTF-8 `bytes`, which must be one JSON value with optional white space around
  /// it; invalid UTF-8 in a string is ``Outcome/notJSON``.
  package static func read(utf8 bytes: [UInt8]) -> Outcome {
    var reader = Reader(bytes: bytes)
    do throws(Failure) {
      reader.skipSpace()
      let value = try reader.value(depth: 0)
      reader.skipSpace()
      guard reader.index == reader.bytes.count else { return .notJSON }
      return .value(value)
    } catch {
      switch error {
      case .notJSON: return .notJSON
      case .unusable(let reason): return .unusable(reason: reason)
      }
    }
  }

  private enum Failure: Error {
    case notJSON
    case unusable(String)
  }

  private struct Reader {
    let bytes: [UInt8]
    var index = 0

    mutating func skipSpace() {
      while index < bytes.count {
        switch bytes[index] {
        case 0x20, 0x09, 0x0A, 0x0D: index += 1
        default: return
        }
      }
    }

    func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func literal(_ word: StaticString) throws(Failure) {
      let count = word.utf8CodeUnitCount
      guard bytes.count - index >= count else { throw .notJSON }
      let start = index
      let matches = word.withUTF8Buffer { expected in
        expected.indices.allSatisfy { bytes[start + $0] == expected[$0] }
      }
      guard matches else { throw .notJSON }
      index += count
    }

    mutating func value(depth: Int) throws(Failure) -> DocumentValue {
      guard let byte = peek() else { throw .notJSON }
      switch byte {
      case UInt8(ascii: "{"): return try object(depth: depth + 1)
      case UInt8(ascii: "["): return try array(depth: depth + 1)
      case UInt8(ascii: "\""): return .string(try string())
      case UInt8(ascii: "t"):
        try literal("true")
        return .bool(true)
      case UInt8(ascii: "f"):
        try literal("false")
        return .bool(false)
      case UInt8(ascii: "n"):
        try literal("null")
        return .null
      default: return try number()
      }
    }

    mutating func object(depth: Int) throws(Failure) -> DocumentValue {
      guard depth <= DocumentJSONReader.maximumDepth else {
        throw .unusable("nested deeper than \(DocumentJSONReader.maximumDepth) levels")
      }
      index += 1
      var fields: [String: DocumentValue] = [:]
      skipSpace()
      if peek() == UInt8(ascii: "}") {
        index += 1
        return .map(fields)
      }
      while true {
        skipSpace()
        guard peek() == UInt8(ascii: "\"") else { throw .notJSON }
        let key = try string()
        skipSpace()
        guard peek() == UInt8(ascii: ":") else { throw .notJSON }
        index += 1
        skipSpace()
        let value = try self.value(depth: depth)
        // A Swift dictionary compares keys by canonical equivalence: `é` as U+00E9 and as
        // `e` + U+0301 are one key, and one of the values would be lost.
        if let earlier = fields.index(forKey: key).map({ fields[$0].key }) {
          guard Array(earlier.utf8) == Array(key.utf8) else {
            throw .unusable(
              "the keys \(JSONTextCheck.shown(earlier)) and \(JSONTextCheck.shown(key)) are "
                + "the same text in other bytes (canonically equivalent Unicode): one would be "
                + "lost")
          }
          throw .unusable("the key \"\(key)\" appears twice in an object")
        }
        fields[key] = value
        skipSpace()
        switch peek() {
        case UInt8(ascii: ","): index += 1
        case UInt8(ascii: "}"):
          index += 1
          return .map(fields)
        default: throw .notJSON
        }
      }
    }

    mutating func array(depth: Int) throws(Failure) -> DocumentValue {
      guard depth <= DocumentJSONReader.maximumDepth else {
        throw .unusable("nested deeper than \(DocumentJSONReader.maximumDepth) levels")
      }
      index += 1
      var values: [DocumentValue] = []
      skipSpace()
      if peek() == UInt8(ascii: "]") {
        index += 1
        return .array(values)
      }
      while true {
        skipSpace()
        values.append(try value(depth: depth))
        skipSpace()
        switch peek() {
        case UInt8(ascii: ","): index += 1
        case UInt8(ascii: "]"):
          index += 1
          return .array(values)
        default: throw .notJSON
        }
      }
    }

    /// A string starting at the opening quote. A string without escapes (every member
    /// name and nearly every value of a token or a field) is validated and made in one
    /// step from its bytes; one with escapes is rebuilt as UTF-8 bytes and validated once
    /// at the end. Both refuse invalid UTF-8 and control characters alike: an escape
    /// always writes a whole character, so it can neither complete nor hide a broken
    /// sequence next to it.
    mutating func string() throws(Failure) -> String {
      index += 1
      let start = index
      while index < bytes.count {
        switch bytes[index] {
        case UInt8(ascii: "\""):
          guard let text = String(validating: bytes[start..<index], as: UTF8.self) else {
            throw .notJSON
          }
          index += 1
          return text
        case UInt8(ascii: "\\"): return try escapedString(from: start)
        case 0x00..<0x20: throw .notJSON
        default: index += 1
        }
      }
      throw .notJSON
    }

    /// The rest of a string with escapes: `start` is its first byte, ``index`` the first
    /// backslash.
    mutating func escapedString(from start: Int) throws(Failure) -> String {
      var text = Array(bytes[start..<index])
      while let byte = peek() {
        index += 1
        switch byte {
        case UInt8(ascii: "\""):
          guard let string = String(validating: text, as: UTF8.self) else { throw .notJSON }
          return string
        case UInt8(ascii: "\\"):
          guard let escape = peek() else { throw .notJSON }
          index += 1
          switch escape {
          case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
          case UInt8(ascii: "b"): text.append(0x08)
          case UInt8(ascii: "f"): text.append(0x0C)
          case UInt8(ascii: "n"): text.append(0x0A)
          case UInt8(ascii: "r"): text.append(0x0D)
          case UInt8(ascii: "t"): text.append(0x09)
          case UInt8(ascii: "u"):
            let scalar = try unicodeEscape()
            text.append(contentsOf: scalar.utf8)
          default: throw .notJSON
          }
        case 0x00..<0x20: throw .notJSON
        default: text.append(byte)
        }
      }
      throw .notJSON
    }

    /// The scalar of `\uXXXX` (after the `u`), or of a surrogate pair `\uD83D\uDE00`.
    mutating func unicodeEscape() throws(Failure) -> Unicode.Scalar {
      let first = try hex4()
      if (0xD800..<0xDC00).contains(first) {
        guard peek() == UInt8(ascii: "\\") else { throw .notJSON }
        index += 1
        guard peek() == UInt8(ascii: "u") else { throw .notJSON }
        index += 1
        let second = try hex4()
        guard (0xDC00..<0xE000).contains(second) else { throw .notJSON }
        let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
        guard let scalar = Unicode.Scalar(value) else { throw .notJSON }
        return scalar
      }
      guard let scalar = Unicode.Scalar(first) else { throw .notJSON }
      return scalar
    }

    mutating func hex4() throws(Failure) -> UInt32 {
      guard bytes.count - index >= 4 else { throw .notJSON }
      var value: UInt32 = 0
      for _ in 0..<4 {
        let byte = bytes[index]
        index += 1
        let digit: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
        default: throw .notJSON
        }
        value = value * 16 + UInt32(digit)
      }
      return value
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    mutating func number() throws(Failure) -> DocumentValue {
      let start = index
      func digits() -> Int {
        let first = index
        while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
          index += 1
        }
        return index - first
      }
      if peek() == UInt8(ascii: "-") { index += 1 }
      let integerStart = index
      let integerDigits = digits()
      guard integerDigits > 0 else { throw .notJSON }
      if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") { throw .notJSON }
      var integral = true
      if peek() == UInt8(ascii: ".") {
        index += 1
        guard digits() > 0 else { throw .notJSON }
        integral = false
      }
      let mantissaEnd = index
      if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
        index += 1
        if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
        guard digits() > 0 else { throw .notJSON }
        integral = false
      }
      if integral, let integer = Self.integer(bytes[start..<index]) { return .integer(integer) }
      let text = String(decoding: bytes[start..<index], as: UTF8.self)
      guard let double = Double(text), double.isFinite else {
        throw .unusable("the number \(text) is out of range (larger than a double can hold)")
      }
      // A number written with a non-zero digit that reads as zero underflowed: storing 0
      // would silently change the value, as storing infinity would for an overflow.
      // Subnormal doubles (down to 5e-324) are kept: they are values a double holds.
      if double == 0,
        bytes[integerStart..<mantissaEnd].contains(where: {
          (UInt8(ascii: "1")...UInt8(ascii: "9")).contains($0)
        })
      {
        throw .unusable(
          "the number \(text) is out of range (too small: a double would hold it as 0)")
      }
      return .double(double)
    }

    /// The value of an optional minus and decimal digits (already checked), or `nil` when
    /// it does not fit in 64 bits.
    static func integer(_ text: ArraySlice<UInt8>) -> Int64? {
      var digits = text[...]
      let negative = digits.first == UInt8(ascii: "-")
      if negative { digits = digits.dropFirst() }
      var value: Int64 = 0
      for byte in digits {
        // Accumulated as a negative number: Int64.min has no positive counterpart.
        let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
        let (next, underflowed) = shifted.subtractingReportingOverflow(
          Int64(byte - UInt8(ascii: "0")))
        guard !overflowed, !underflowed else { return nil }
        value = next
      }
      if negative { return value }
      return value == .min ? nil : -value
    }
  }
}
