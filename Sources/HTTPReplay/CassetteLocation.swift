import Foundation

/// How every message names a place in a cassette or HAR file: the JSON path from the
/// file's root, `log.entries[3].request.postData.text` (0-based, as the file's entries
/// array is indexed), so a reader can find the spot in the file. Schema and leak findings,
/// load, replay and import errors and the recorder's refusals all build their paths here.
enum CassetteLocation {
  /// `log.entries`.
  static let entries = "log.entries"

  /// `log.entries[index]`, or `log.entries[index].field` (`field` like
  /// `request.postData.text`).
  static func entry(_ index: Int, _ field: String? = nil) -> String {
    let path = "\(entries)[\(index)]"
    guard let field, !field.isEmpty else { return path }
    return path + "." + field
  }

  /// `text` with each `log.entries[N]` in it renumbered by `index` (an import names the
  /// entries of the file it read, not those of the cassette it builds).
  static func renumberingEntries(in text: String, _ index: (Int) -> Int) -> String {
    let prefix = entries + "["
    var result = ""
    var rest = Substring(text)
    while let start = rest.range(of: prefix) {
      result += rest[..<start.upperBound]
      rest = rest[start.upperBound...]
      let digits = rest.prefix { $0.isASCII && $0.isNumber }
      guard !digits.isEmpty, rest.dropFirst(digits.count).first == "]",
        let number = Int(digits)
      else { continue }
      result += String(index(number))
      rest = rest.dropFirst(digits.count)
    }
    return result + rest
  }
}
