import Foundation
import UserBackendKit

extension NCMBSignature {
  /// The canonical, signable form of a query written by hand (as typed on a command line
  /// or copied from documentation), for tools such as `baas ncmb sign`.
  ///
  /// The service signs the query's bytes as received and accepts only upper-case
  /// percent-escapes, so a query must be encoded exactly once, the way the adapter does.
  /// `raw` may be written plainly (`where={"testKey":"testValue"}`), already encoded
  /// (`where=%7B%22testKey%22%3A%22testValue%22%7D`), encoded with lower-case hex
  /// (`%7b…%3a…`) or a mix; the result is the same for all of them:
  ///
  /// - Pairs are split at `&` only outside JSON strings, objects and arrays, so
  ///   `where={"name":"a&b"}` stays one parameter.
  /// - Each key and value is split at its first `=`, percent-decoded (`%XX`, either case)
  ///   and re-encoded with ``percentEncode(_:)``: unreserved characters stay, everything
  ///   else becomes `%XX` with upper-case hex.
  /// - `+` is a literal plus (sent as `%2B`), never a space: the service would read a raw
  ///   `+` as a space. Write a space as a space or `%20`.
  /// - A pair without `=` stays value-less (`s`); empty pairs (`a=1&&b=2`) are dropped.
  ///
  /// - Parameter raw: the query without the leading `?`.
  /// - Returns: the encoded query, pairs in their original order (signing sorts them).
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "query", …)` for a `%` not
  ///   followed by two hex digits, or escapes that do not decode to UTF-8 text.
  public static func canonicalQuery(_ raw: String) throws -> String {
    try splitPairs(raw).map { pair -> String in
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = percentEncode(try decodeEscapes(parts[0]))
      guard parts.count == 2 else { return name }
      return name + "=" + percentEncode(try decodeEscapes(parts[1]))
    }.joined(separator: "&")
  }

  /// `raw` split at the `&` characters that are outside JSON strings and brackets.
  private static func splitPairs(_ raw: String) -> [Substring] {
    var pairs: [Substring] = []
    var start = raw.startIndex
    var depth = 0
    var inString = false
    var escaped = false
    var index = raw.startIndex
    while index < raw.endIndex {
      let character = raw[index]
      if inString {
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          inString = false
        }
      } else {
        switch character {
        case "\"": inString = true
        case "{", "[": depth += 1
        case "}", "]": depth = max(0, depth - 1)
        case "&" where depth == 0:
          pairs.append(raw[start..<index])
          start = raw.index(after: index)
        default: break
        }
      }
      index = raw.index(after: index)
    }
    pairs.append(raw[start...])
    return pairs.filter { !$0.isEmpty }
  }

  /// `text` with every `%XX` escape (either case) decoded; `+` stays a plus.
  private static func decodeEscapes(_ text: Substring) throws -> String {
    var bytes: [UInt8] = []
    var iterator = Array(text.utf8).makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next().flatMap(hexValue),
        let low = iterator.next().flatMap(hexValue)
      else {
        throw UserBackendError(
          .invalidInput(
            field: "query",
            reason: "has a % that is not followed by two hex digits (write a percent sign as %25)"
          ))
      }
      bytes.append(high << 4 | low)
    }
    guard let decoded = String(validating: bytes, as: UTF8.self) else {
      throw UserBackendError(
        .invalidInput(field: "query", reason: "has percent-escapes that are not UTF-8 text"))
    }
    return decoded
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
