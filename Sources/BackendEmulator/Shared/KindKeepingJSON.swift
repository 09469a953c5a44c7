import BackendHTTP
import Foundation
import UserBackendKit

/// Writes JSON in which every number keeps its kind: a `Double` always has a fraction or
/// an exponent (`2.0`, `-0.0`, `1e+20`), an integer never does (`2`).
///
/// `JSONSerialization` writes the double `2.0` as `2` and `-0.0` as `-0`, which every JSON
/// reader (the NCMB adapter, the NCMB SDKs) reads back as an integer: a client that wrote
/// a double would read an integer. The NCMB answers carry untyped JSON values (the user
/// object's fields), so they are written with this instead; the Firestore answers name
/// each value's type (`doubleValue`) and keep `JSONSerialization`.
///
/// Accepts what the handlers build: `[String: Any]` (keys sorted, so bytes are
/// deterministic), `[Any]`, `String`, `Bool`, Swift integers, `Double`, `NSNumber` (as
/// `JSONSerialization` read it: its Objective-C type says Boolean, integer or double) and
/// `NSNull`. A non-finite double and any other value are written as `null`. Slashes are
/// not escaped; `"`, `\` and control characters are.
enum KindKeepingJSON {
  /// The UTF-8 JSON text of `value`.
  static func data(_ value: Any) -> Data {
    var output = ""
    write(value, to: &output)
    return Data(output.utf8)
  }

  private static func write(_ value: Any, to output: inout String) {
    // NSNumber first: a number JSONSerialization read also casts to Bool, Int and Double.
    if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
      writeNumber(number, to: &output)
      return
    }
    switch value {
    case let flag as Bool: output += flag ? "true" : "false"
    case let number as Double: writeDouble(number, to: &output)
    case let number as Int: output += String(number)
    case let number as Int64: output += String(number)
    case let number as Int32: output += String(number)
    case let number as UInt64: output += String(number)
    case let number as UInt: output += String(number)
    case let text as String: writeString(text, to: &output)
    case let object as [String: Any]:
      output += "{"
      // The pairs, not `object[key]`: an `Optional` in `Any` would hide an `NSNumber`'s
      // type and cast it to `Double`.
      for (index, (key, element)) in object.sorted(by: { $0.key < $1.key }).enumerated() {
        if index > 0 { output += "," }
        writeString(key, to: &output)
        output += ":"
        write(element, to: &output)
      }
      output += "}"
    case let list as [Any]:
      output += "["
      for (index, element) in list.enumerated() {
        if index > 0 { output += "," }
        write(element, to: &output)
      }
      output += "]"
    default: output += "null"
    }
  }

  private static func writeNumber(_ number: NSNumber, to output: inout String) {
    if String(describing: type(of: number)).contains("Boolean") {
      output += number.boolValue ? "true" : "false"
      return
    }
    switch String(cString: number.objCType) {
    case "c", "B": output += number.boolValue ? "true" : "false"
    case "d", "f": writeDouble(number.doubleValue, to: &output)
    case "Q": output += String(number.uint64Value)
    default: output += String(number.int64Value)
    }
  }

  /// Swift's shortest round-trip text, which for a finite double always has `.` or `e`.
  private static func writeDouble(_ number: Double, to output: inout String) {
    guard number.isFinite else {
      output += "null"
      return
    }
    let text = "\(number)"
    output += text.contains(where: { $0 == "." || $0 == "e" }) ? text : text + ".0"
  }

  private static func writeString(_ text: String, to output: inout String) {
    output += JSONStringLiteral.quoted(text)
  }
}

extension WireResponse {
  /// `status` with a JSON body written by ``KindKeepingJSON`` (sorted keys; a double keeps
  /// its fraction): the NCMB answers.
  static func jsonKeepingNumberKinds(
    _ status: Int, _ object: [String: Any], headers: HTTPFields = [:]
  ) -> HTTPResponse {
    var fields = headers
    fields["Content-Type"] = "application/json; charset=UTF-8"
    return HTTPResponse(status: status, headerFields: fields, body: KindKeepingJSON.data(object))
  }
}
