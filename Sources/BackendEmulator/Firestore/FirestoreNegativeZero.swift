import Foundation

/// Keeps the sign of a JSON `-0` in a Firestore request body.
///
/// The clients write the double `-0.0` as the JSON number `-0` (`{"doubleValue":-0}`), and
/// `JSONSerialization` reads a number without a fraction as an integer, so `-0` became
/// `0` and the emulator stored `+0.0` where Firestore (and the fake) keep `-0.0`. Before
/// parsing, every number token `-0` outside strings is spelled `-0.0`, which reads as the
/// double `-0.0`. An `integerValue` given as the number `-0` still reads as `0` (see
/// ``FirestoreValueCoding``).
enum FirestoreNegativeZero {
  /// `body` with each number token `-0` (outside strings, not followed by a digit, `.`,
  /// `e` or `E`) written `-0.0`; other bytes unchanged. A body without `-0` is returned
  /// as is.
  static func spelledAsDouble(_ body: Data) -> Data {
    let bytes = [UInt8](body)
    var output: [UInt8] = []
    var inString = false
    var escaped = false
    var index = 0
    var changed = false
    output.reserveCapacity(bytes.count)
    while index < bytes.count {
      let byte = bytes[index]
      output.append(byte)
      index += 1
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
      } else if byte == UInt8(ascii: "\"") {
        inString = true
      } else if byte == UInt8(ascii: "-"), index < bytes.count, bytes[index] == UInt8(ascii: "0"),
        index + 1 == bytes.count || !continuesNumber(bytes[index + 1])
      {
        output.append(contentsOf: Array("0.0".utf8))
        index += 1
        changed = true
      }
    }
    return changed ? Data(output) : body
  }

  /// `true` for a byte that would continue a number after `-0`.
  private static func continuesNumber(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".")
      || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
  }
}
