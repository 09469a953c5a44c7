/// Finds, in a JSON text, what the Foundation readers lose without a word or refuse
/// without naming the place, so that a reader of document values can refuse it naming the
/// field:
///
/// - **One name twice in an object.** `JSONSerialization` and `JSONDecoder` read an object
///   into a Swift dictionary, whose keys compare by canonical equivalence: `"é"` written as
///   U+00E9 and as `e` + U+0301 are one key there, so one member is dropped silently,
///   although Firestore and NCMB keep both (their names compare by bytes). The same bytes
///   twice are dropped the same way.
/// - **A number a `Double` cannot hold.** `JSONSerialization` reads `1e-400` as `0` (and
///   `-1e-400` as `-0.0`): a value lost; `1e400` fails the whole text without saying
///   where. A number is out of range when `Double` reads it as infinite, or as zero while
///   a digit of its mantissa is not zero (`0e-400` is 0; subnormal doubles such as `5e-324`
///   are kept).
///
/// Only these are reported; text that is not JSON gives `nil` (the caller's reader says
/// what is wrong), as does nesting deeper than ``maximumDepth``.
package enum JSONTextCheck {
  /// How deep the check follows arrays and objects; a deeper text is left to the reader.
  package static let maximumDepth = 512

  /// One step of a path inside a JSON text.
  package enum Component: Sendable, Hashable {
    /// An object member, by name.
    case member(String)
    /// An array element, by position (from 0).
    case index(Int)
  }

  /// What the check found.
  package enum Problem: Sendable, Hashable {
    /// Two member names of one object that Swift's `String` compares equal. `path` ends
    /// with the second name; `first` is the name written earlier (other bytes, or the same).
    case sameName(path: [Component], first: String, second: String)
    /// A number `Double` cannot hold: `path` leads to it, `text` is as written, `tooSmall`
    /// tells an underflow (it would read as 0) from an overflow.
    case numberOutOfRange(path: [Component], text: String, tooSmall: Bool)

    /// Where the problem is.
    package var path: [Component] {
      switch self {
      case .sameName(let path, _, _), .numberOutOfRange(let path, _, _): path
      }
    }

    /// Why the value cannot be read, for an error message: names are shown with their
    /// code points when the texts differ (`"é" (U+00E9)`), a number as written.
    package var reason: String {
      switch self {
      case .sameName(_, let first, let second) where Array(first.utf8) == Array(second.utf8):
        return "the name \(JSONTextCheck.quoted(first)) appears twice in one object"
      case .sameName(_, let first, let second):
        return "the names \(JSONTextCheck.shown(first)) and \(JSONTextCheck.shown(second)) "
          + "are canonically equivalent Unicode (the same text in other bytes): they would "
          + "read as one name and one value would be lost"
      case .numberOutOfRange(_, let text, true):
        return "the number \(text) is out of range (too small: a double would hold it as 0)"
      case .numberOutOfRange(_, let text, false):
        return "the number \(text) is out of range (larger than a double can hold)"
      }
    }
  }

  /// The first problem of `bytes` (UTF-8 JSON), in text order, or `nil`.
  package static func firstProblem(_ bytes: some Collection<UInt8>) -> Problem? {
    var scanner = Scanner(bytes: Array(bytes))
    do throws(Stop) {
      try scanner.value(path: [], depth: 0)
      return nil
    } catch {
      if case .problem(let problem) = error { return problem }
      return nil
    }
  }

  /// `path` as member names joined by `.` and positions as `[n]`: `m.list[2].x`.
  package static func dotted(_ path: [Component]) -> String {
    var text = ""
    for component in path {
      switch component {
      case .member(let name): text += (text.isEmpty ? "" : ".") + shortened(name)
      case .index(let index): text += "[\(index)]"
      }
    }
    return text
  }

  /// A path inside a Firestore REST body as a field path: up to the first member
  /// `fields` as ``dotted(_:)`` (`writes[0].update`), then the field names only, the
  /// typed-value keys (`mapValue`, `fields`, `arrayValue`, `values`, `doubleValue`) left
  /// out: `writes[0].update.fields.m.list[2]`.
  package static func firestoreFieldPath(_ path: [Component]) -> String {
    guard let start = path.firstIndex(of: .member("fields")) else { return dotted(path) }
    var text = dotted(Array(path[...start]))
    var expectingName = true
    var previous: Component? = nil
    for component in path[(start + 1)...] {
      switch component {
      case .member(let name) where expectingName:
        text += "." + shortened(name)
        expectingName = false
      case .member(let key):
        expectingName = key == "fields"
      case .index(let index) where previous == .member("values"):
        text += "[\(index)]"
      case .index:
        break
      }
      previous = component
    }
    return text
  }

  /// A name in quotes with its code points: `"é" (U+0065 U+0301)`; a long name shortened.
  package static func shown(_ name: String) -> String {
    let scalars = name.unicodeScalars.prefix(16).map { scalar in
      let hex = String(scalar.value, radix: 16, uppercase: true)
      return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
    let more = name.unicodeScalars.count > 16 ? " …" : ""
    return quoted(name) + " (" + scalars.joined(separator: " ") + more + ")"
  }

  private static func quoted(_ name: String) -> String { "\"" + shortened(name) + "\"" }

  private static func shortened(_ name: String) -> String {
    name.utf8.count > 64 ? String(name.prefix(32)) + "…" : name
  }

  private enum Stop: Error {
    case problem(Problem)
    case notChecked
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

    mutating func value(path: [Component], depth: Int) throws(Stop) {
      guard depth <= JSONTextCheck.maximumDepth else { throw .notChecked }
      skipSpace()
      guard let byte = peek() else { throw .notChecked }
      switch byte {
      case UInt8(ascii: "{"): try object(path: path, depth: depth + 1)
      case UInt8(ascii: "["): try array(path: path, depth: depth + 1)
      case UInt8(ascii: "\""): try skipString()
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number(path: path)
      case UInt8(ascii: "a")...UInt8(ascii: "z"):
        while let letter = peek(), (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(letter) {
          index += 1
        }
      default: throw .notChecked
      }
    }

    mutating func object(path: [Component], depth: Int) throws(Stop) {
      index += 1
      var names: Set<String> = []
      skipSpace()
      if peek() == UInt8(ascii: "}") {
        index += 1
        return
      }
      while true {
        skipSpace()
        guard peek() == UInt8(ascii: "\"") else { throw .notChecked }
        let name = try string()
        let (inserted, earlier) = names.insert(name)
        guard inserted else {
          throw .problem(.sameName(path: path + [.member(name)], first: earlier, second: name))
        }
        skipSpace()
        guard peek() == UInt8(ascii: ":") else { throw .notChecked }
        index += 1
        try value(path: path + [.member(name)], depth: depth)
        skipSpace()
        switch peek() {
        case UInt8(ascii: ","): index += 1
        case UInt8(ascii: "}"):
          index += 1
          return
        default: throw .notChecked
        }
      }
    }

    mutating func array(path: [Component], depth: Int) throws(Stop) {
      index += 1
      skipSpace()
      if peek() == UInt8(ascii: "]") {
        index += 1
        return
      }
      var position = 0
      while true {
        try value(path: path + [.index(position)], depth: depth)
        position += 1
        skipSpace()
        switch peek() {
        case UInt8(ascii: ","): index += 1
        case UInt8(ascii: "]"):
          index += 1
          return
        default: throw .notChecked
        }
      }
    }

    /// Past a string value, without decoding it.
    mutating func skipString() throws(Stop) {
      index += 1
      while let byte = peek() {
        index += 1
        if byte == UInt8(ascii: "\\") {
          index += 1
        } else if byte == UInt8(ascii: "\"") {
          return
        }
      }
      throw .notChecked
    }

    /// A member name, decoded (escapes included).
    mutating func string() throws(Stop) -> String {
      index += 1
      var text: [UInt8] = []
      while let byte = peek() {
        index += 1
        switch byte {
        case UInt8(ascii: "\""):
          guard let decoded = String(validating: text, as: UTF8.self) else { throw .notChecked }
          return decoded
        case UInt8(ascii: "\\"):
          guard let escape = peek() else { throw .notChecked }
          index += 1
          switch escape {
          case UInt8(ascii: "b"): text.append(0x08)
          case UInt8(ascii: "f"): text.append(0x0C)
          case UInt8(ascii: "n"): text.append(0x0A)
          case UInt8(ascii: "r"): text.append(0x0D)
          case UInt8(ascii: "t"): text.append(0x09)
          case UInt8(ascii: "u"): text.append(contentsOf: try unicodeEscape().utf8)
          default: text.append(escape)
          }
        default: text.append(byte)
        }
      }
      throw .notChecked
    }

    mutating func unicodeEscape() throws(Stop) -> Unicode.Scalar {
      let first = try hex4()
      if (0xD800..<0xDC00).contains(first) {
        guard peek() == UInt8(ascii: "\\") else { throw .notChecked }
        index += 1
        guard peek() == UInt8(ascii: "u") else { throw .notChecked }
        index += 1
        let second = try hex4()
        guard (0xDC00..<0xE000).contains(second),
          let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
        else { throw .notChecked }
        return scalar
      }
      guard let scalar = Unicode.Scalar(first) else { throw .notChecked }
      return scalar
    }

    mutating func hex4() throws(Stop) -> UInt32 {
      guard bytes.count - index >= 4,
        let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
      else { throw .notChecked }
      index += 4
      return value
    }

    /// A number token: checked with `Double`, as ``JSONTextCheck`` says.
    mutating func number(path: [Component]) throws(Stop) {
      let start = index
      var mantissaEnd: Int? = nil
      while let byte = peek() {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"),
          UInt8(ascii: "."):
          index += 1
        case UInt8(ascii: "e"), UInt8(ascii: "E"):
          if mantissaEnd == nil { mantissaEnd = index }
          index += 1
        default:
          return try check(start, mantissaEnd ?? index, path: path)
        }
      }
      try check(start, mantissaEnd ?? index, path: path)
    }

    func check(_ start: Int, _ mantissaEnd: Int, path: [Component]) throws(Stop) {
      let text = String(decoding: bytes[start..<index], as: UTF8.self)
      guard let value = Double(text) else { throw .notChecked }
      if !value.isFinite {
        throw .problem(.numberOutOfRange(path: path, text: text, tooSmall: false))
      }
      if value == 0,
        bytes[start..<mantissaEnd].contains(where: {
          (UInt8(ascii: "1")...UInt8(ascii: "9")).contains($0)
        })
      {
        throw .problem(.numberOutOfRange(path: path, text: text, tooSmall: true))
      }
    }
  }
}
