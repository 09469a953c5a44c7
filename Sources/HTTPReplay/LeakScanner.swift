import BackendHTTP
import Foundation

/// The form in which a secret (or a secret-shaped string) was found.
public enum LeakForm: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
  /// The secret as is.
  case raw
  /// Percent-encoded (`%40` for `@`), as in URLs and form bodies.
  case percentEncoded
  /// JSON-escaped once or twice (`\"`, `\\`, `\/`, `\u00e9`), as inside JSON or inside a
  /// JSON body stored as a JSON string.
  case jsonEscaped
  /// Base64, at any byte alignment (e.g. inside `Basic user:secret`).
  case base64
  /// Base64url, at any byte alignment.
  case base64url
  /// The UTF-8 bytes as hex digits, either case (`68756e74…`).
  case hex
  /// HTML/XML character references: every character as `&#104;`, `&#x68;` or `&#X68;`,
  /// or only the markup characters escaped (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&#39;`).
  case htmlCharacterReferences
  /// A Google API key shape: `AIza` followed by 35 of `[0-9A-Za-z_-]`.
  case googleAPIKey
  /// A signed JWT shape: three base64url segments with a non-empty signature.
  case signedJWT

  /// The form's name, e.g. `"percent-encoded"`.
  public var description: String {
    switch self {
    case .raw: "raw"
    case .percentEncoded: "percent-encoded"
    case .jsonEscaped: "JSON-escaped"
    case .base64: "base64"
    case .base64url: "base64url"
    case .hex: "hex"
    case .htmlCharacterReferences: "HTML character reference"
    case .googleAPIKey: "Google API key shape"
    case .signedJWT: "signed JWT shape"
    }
  }
}

/// One leak: what form, which configured secret (by position, never by value) and where.
public struct LeakFinding: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The form found.
  public var form: LeakForm
  /// The index into the `secrets` list, or `nil` for a generic shape.
  public var secretIndex: Int?
  /// The byte offset in the scanned data.
  public var offset: Int
  /// The 1-based line of the offset.
  public var line: Int
  /// The 1-based column (in bytes) of the offset.
  public var column: Int

  /// A finding.
  public init(form: LeakForm, secretIndex: Int?, offset: Int, line: Int, column: Int) {
    self.form = form
    self.secretIndex = secretIndex
    self.offset = offset
    self.line = line
    self.column = column
  }

  /// E.g. `base64 form of secret #2 at line 14, column 33`; never the secret itself.
  public var description: String {
    let what = secretIndex.map { "\(form) form of secret #\($0 + 1)" } ?? "\(form)"
    return "\(what) at line \(line), column \(column)"
  }
}

/// Scans bytes for secrets before they are written anywhere (docs/cassettes.md
/// §8): every configured secret in raw, percent-encoded, JSON-escaped, base64, base64url,
/// hex and HTML character reference forms, plus generic shapes (Google API keys, signed
/// JWTs).
public enum LeakScanner {
  /// Secrets shorter than this are skipped (too likely to match by accident).
  public static let minimumSecretLength = 4

  /// Every leak in `data`, ordered by offset. Empty secrets and secrets shorter than
  /// ``minimumSecretLength`` are ignored. At most one finding per (secret, offset).
  public static func scan(_ data: Data, secrets: [String]) -> [LeakFinding] {
    let bytes = [UInt8](data)
    var findings: [LeakFinding] = []
    var seen = Set<[Int]>()
    let lines = LineIndex(bytes)
    func record(_ form: LeakForm, _ index: Int?, _ offset: Int) {
      guard seen.insert([index ?? -1, offset]).inserted else { return }
      let (line, column) = lines.position(of: offset)
      findings.append(
        LeakFinding(form: form, secretIndex: index, offset: offset, line: line, column: column))
    }
    for (index, secret) in secrets.enumerated() where secret.utf8.count >= minimumSecretLength {
      for (form, needle) in forms(of: secret) {
        for offset in occurrences(of: needle, in: bytes) { record(form, index, offset) }
      }
    }
    for offset in googleAPIKeyOffsets(in: bytes) { record(.googleAPIKey, nil, offset) }
    for range in SignedJWTScanner.byteRanges(in: bytes) {
      record(.signedJWT, nil, range.lowerBound)
    }
    return findings.sorted { ($0.offset, $0.secretIndex ?? -1) < ($1.offset, $1.secretIndex ?? -1) }
  }

  /// The byte strings to look for, per form, without duplicates (a form that encodes to
  /// the same bytes as an earlier one is reported as the earlier one).
  static func forms(of secret: String) -> [(LeakForm, [UInt8])] {
    var result: [(LeakForm, [UInt8])] = []
    var seen = Set<[UInt8]>()
    func add(_ form: LeakForm, _ text: String?) {
      guard let text, !text.isEmpty else { return }
      let bytes = Array(text.utf8)
      if seen.insert(bytes).inserted { result.append((form, bytes)) }
    }
    add(.raw, secret)
    add(
      .percentEncoded,
      secret.addingPercentEncoding(withAllowedCharacters: FormURLEncoding.unreserved))
    add(
      .percentEncoded,
      secret.addingPercentEncoding(
        withAllowedCharacters: .urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+"))))
    add(.percentEncoded, FormURLEncoding.escape(secret).replacingOccurrences(of: "%20", with: "+"))
    add(.percentEncoded, lowercasingPercentEscapes(FormURLEncoding.escape(secret)))
    for once in jsonEscapes(secret) {
      add(.jsonEscaped, once)
      for twice in jsonEscapes(once) { add(.jsonEscaped, twice) }
    }
    let bytes = Array(secret.utf8)
    add(.hex, bytes.map { String(format: "%02x", $0) }.joined())
    add(.hex, bytes.map { String(format: "%02X", $0) }.joined())
    let scalars = secret.unicodeScalars
    add(.htmlCharacterReferences, scalars.map { "&#\($0.value);" }.joined())
    add(
      .htmlCharacterReferences, scalars.map { "&#x\(String($0.value, radix: 16));" }.joined())
    add(
      .htmlCharacterReferences,
      scalars.map { "&#x\(String($0.value, radix: 16, uppercase: true));" }.joined())
    add(
      .htmlCharacterReferences,
      scalars.map { "&#X\(String($0.value, radix: 16, uppercase: true));" }.joined())
    add(.htmlCharacterReferences, HTMLEscaping.escaped(secret))
    let raw = Data(secret.utf8)
    for alignment in 0..<3 {
      if let stable = stableBase64(raw, alignment: alignment) {
        add(.base64, stable)
        add(
          .base64url,
          stable.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_"))
      }
    }
    return result
  }

  /// `text` with the hex digits of its `%XX` escapes in lower case (`%2f`), which RFC 3986
  /// allows and some clients write.
  public static func lowercasingPercentEscapes(_ text: String) -> String {
    var result = ""
    var rest = Substring(text)
    while let percent = rest.firstIndex(of: "%") {
      result += rest[..<percent]
      let escape = rest[percent...].prefix(3)
      result += escape.lowercased()
      rest = rest[escape.endIndex...]
    }
    return result + rest
  }

  /// JSON string escapes of `text` (without quotes): with and without `\/`, and with
  /// non-ASCII as `\uXXXX`.
  static func jsonEscapes(_ text: String) -> [String] {
    var plain = ""
    var ascii = ""
    for scalar in text.unicodeScalars {
      let escaped: String
      switch scalar {
      case "\"": escaped = "\\\""
      case "\\": escaped = "\\\\"
      case "\n": escaped = "\\n"
      case "\r": escaped = "\\r"
      case "\t": escaped = "\\t"
      case _ where scalar.value < 0x20: escaped = String(format: "\\u%04x", scalar.value)
      default: escaped = String(scalar)
      }
      plain += escaped
      if scalar.value > 0x7E {
        for unit in String(scalar).utf16 { ascii += String(format: "\\u%04x", unit) }
      } else {
        ascii += escaped
      }
    }
    return [plain, plain.replacingOccurrences(of: "/", with: "\\/"), ascii]
  }

  /// The base64 characters that depend only on `secret` when it starts `alignment` bytes
  /// into a 3-byte group (whole 4-character groups); `nil` when fewer than 8 characters.
  static func stableBase64(_ secret: Data, alignment: Int) -> String? {
    let padded = Data(repeating: 0, count: alignment) + secret
    let encoded = Array(padded.base64EncodedString().utf8)
    let firstGroup = alignment == 0 ? 0 : 1
    let fullGroups = padded.count / 3
    guard fullGroups > firstGroup else { return nil }
    let slice = encoded[(firstGroup * 4)..<(fullGroups * 4)]
    guard slice.count >= 8 else { return nil }
    var text = String(decoding: slice, as: UTF8.self)
    if alignment == 0, padded.count % 3 == 0 { text = padded.base64EncodedString() }
    return text
  }

  static func occurrences(of needle: [UInt8], in haystack: [UInt8]) -> [Int] {
    guard !needle.isEmpty, haystack.count >= needle.count, let first = needle.first else {
      return []
    }
    var offsets: [Int] = []
    var index = 0
    let last = haystack.count - needle.count
    while index <= last {
      if haystack[index] == first {
        var matched = true
        for k in 1..<needle.count where haystack[index + k] != needle[k] {
          matched = false
          break
        }
        if matched { offsets.append(index) }
      }
      index += 1
    }
    return offsets
  }

  static func googleAPIKeyOffsets(in bytes: [UInt8]) -> [Int] {
    let prefix: [UInt8] = Array("AIza".utf8)
    return occurrences(of: prefix, in: bytes).filter { offset in
      let start = offset + 4
      guard start + 35 <= bytes.count else { return false }
      return bytes[start..<(start + 35)].allSatisfy(SignedJWTScanner.isBase64URL)
    }
  }
}

/// Maps byte offsets to 1-based line and column.
struct LineIndex {
  private var lineStarts: [Int] = [0]

  init(_ bytes: [UInt8]) {
    for (index, byte) in bytes.enumerated() where byte == 0x0A { lineStarts.append(index + 1) }
  }

  func position(of offset: Int) -> (line: Int, column: Int) {
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let mid = (low + high + 1) / 2
      if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
    }
    return (low + 1, offset - lineStarts[low] + 1)
  }
}
