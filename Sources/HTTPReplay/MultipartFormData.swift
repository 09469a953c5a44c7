import Foundation

/// A `multipart/form-data` body (RFC 7578, framing from RFC 2046 §5.1) read into its parts,
/// so redaction and the leak scan see each part's value under its name (`password`,
/// `oobCode`) as they see form and JSON fields.
///
/// Reading is lenient where senders differ (CRLF or bare LF line breaks, a preamble and an
/// epilogue, a missing close delimiter) and the body is never re-serialised: replacing
/// values copies every other byte as it was (boundary, part headers, line breaks).
///
/// The boundary comes from the `Content-Type` `boundary` parameter; when the type is not
/// multipart or names no boundary that frames the body, it comes from the body itself when
/// the body opens with a `--boundary` line followed by a part whose headers include
/// `Content-Disposition` (a body whose `Content-Type` lies is read the same way).
struct MultipartFormData {
  /// One part: its header fields, the `name` and `filename` of its `Content-Disposition`,
  /// and where its value lies in the body.
  struct Part {
    /// Header fields in order (`name`, `value`), names as written.
    var headers: [(name: String, value: String)]
    /// The form field name (`Content-Disposition: form-data; name="…"`), `nil` if none.
    var name: String?
    /// The part's `Content-Type`, or `""` (RFC 7578 §4.4: `text/plain` then).
    var contentType: String
    /// Byte offsets of the value in the body.
    var valueRange: Range<Int>
  }

  /// The body's bytes.
  let bytes: [UInt8]
  /// The parts, in order.
  let parts: [Part]

  /// The parts of `body`, or `nil` when it is not multipart framed (no boundary found,
  /// no delimiter line, a part without a header block).
  init?(_ body: Data, contentType: String?) {
    let bytes = [UInt8](body)
    var candidates: [[UInt8]] = []
    if let boundary = contentType.flatMap(Self.boundary(contentType:)) {
      candidates.append(Array(boundary.utf8))
    }
    if let sniffed = Self.sniffedBoundary(bytes) { candidates.append(sniffed) }
    for boundary in candidates {
      if let parts = Self.parts(bytes, boundary: boundary) {
        self.bytes = bytes
        self.parts = parts
        return
      }
    }
    return nil
  }

  /// The `boundary` parameter of a `multipart/…` media type (quoted or a token), else `nil`.
  static func boundary(contentType: String) -> String? {
    let pieces = contentType.split(separator: ";").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    guard let type = pieces.first, type.lowercased().hasPrefix("multipart/") else { return nil }
    for piece in pieces.dropFirst() {
      guard let equals = piece.firstIndex(of: "="),
        piece[..<equals].trimmingCharacters(in: .whitespaces).lowercased() == "boundary"
      else { continue }
      var value = piece[piece.index(after: equals)...].trimmingCharacters(in: .whitespaces)
      if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
        value = String(value.dropFirst().dropLast())
      }
      return value.isEmpty || value.utf8.count > 200 ? nil : value
    }
    return nil
  }

  /// The boundary of a body whose first line is `--boundary` and whose first part names a
  /// `Content-Disposition`, else `nil`.
  static func sniffedBoundary(_ bytes: [UInt8]) -> [UInt8]? {
    guard bytes.count > 4, bytes[0] == 0x2D, bytes[1] == 0x2D else { return nil }
    var end = 2
    while end < bytes.count, end < 202, bytes[end] != 0x0A { end += 1 }
    guard end < bytes.count, bytes[end] == 0x0A else { return nil }
    var boundary = Array(bytes[2..<end])
    while let last = boundary.last, last == 0x0D || last == 0x20 || last == 0x09 {
      boundary.removeLast()
    }
    guard !boundary.isEmpty else { return nil }
    let head = String(decoding: bytes[end..<min(bytes.count, end + 1_024)], as: UTF8.self)
    return head.lowercased().contains("content-disposition") ? boundary : nil
  }

  /// The parts framed by `boundary`, or `nil` when the body has no delimiter line.
  static func parts(_ bytes: [UInt8], boundary: [UInt8]) -> [Part]? {
    let delimiter: [UInt8] = [0x2D, 0x2D] + boundary
    // Delimiters: at the start of the body or right after a line feed.
    var starts: [Int] = []
    var index = 0
    while let found = find(delimiter, in: bytes, from: index) {
      if found == 0 || bytes[found - 1] == 0x0A { starts.append(found) }
      index = found + 1
    }
    guard !starts.isEmpty else { return nil }
    var parts: [Part] = []
    for (number, start) in starts.enumerated() {
      var cursor = start + delimiter.count
      // The close delimiter `--boundary--` ends the body (the rest is epilogue).
      if cursor + 1 < bytes.count, bytes[cursor] == 0x2D, bytes[cursor + 1] == 0x2D { break }
      // Transport padding, then the line break.
      while cursor < bytes.count, bytes[cursor] == 0x20 || bytes[cursor] == 0x09 { cursor += 1 }
      if cursor < bytes.count, bytes[cursor] == 0x0D { cursor += 1 }
      guard cursor < bytes.count, bytes[cursor] == 0x0A else { return nil }
      cursor += 1
      // The part ends before the line break that precedes the next delimiter.
      var end = number + 1 < starts.count ? starts[number + 1] : bytes.count
      if number + 1 < starts.count {
        end -= 1
        if end > cursor, bytes[end - 1] == 0x0D { end -= 1 }
      }
      guard end >= cursor, let parsed = part(bytes, cursor..<end) else { return nil }
      parts.append(parsed)
    }
    return parts
  }

  /// One part's header block and value; `nil` when the header block has no end.
  static func part(_ bytes: [UInt8], _ range: Range<Int>) -> Part? {
    var headers: [(name: String, value: String)] = []
    var cursor = range.lowerBound
    while true {
      var lineEnd = cursor
      while lineEnd < range.upperBound, bytes[lineEnd] != 0x0A { lineEnd += 1 }
      var contentEnd = lineEnd
      if contentEnd > cursor, bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
      if contentEnd == cursor {
        // The empty line: the value follows (a part with no headers at all starts here).
        let valueStart = min(lineEnd + 1, range.upperBound)
        guard lineEnd < range.upperBound else { return nil }
        return Part(
          headers: headers, name: dispositionParameter("name", headers),
          contentType: headers.last { $0.name.lowercased() == "content-type" }?.value ?? "",
          valueRange: valueStart..<range.upperBound)
      }
      guard lineEnd < range.upperBound else { return nil }
      let line = String(decoding: bytes[cursor..<contentEnd], as: UTF8.self)
      if let colon = line.firstIndex(of: ":") {
        headers.append(
          (
            String(line[..<colon]).trimmingCharacters(in: .whitespaces),
            String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
          ))
      }
      cursor = lineEnd + 1
    }
  }

  /// A parameter (`name`, `filename`) of the `Content-Disposition` field, unquoted.
  static func dispositionParameter(
    _ parameter: String, _ headers: [(name: String, value: String)]
  ) -> String? {
    guard
      let value = headers.first(where: { $0.name.lowercased() == "content-disposition" })?
        .value
    else { return nil }
    let scalars = Array(value.unicodeScalars)
    var index = 0
    // Walk `type; key=value; key="quoted \" value"` keeping quoted strings whole.
    while index < scalars.count {
      while index < scalars.count, scalars[index] != ";" {
        if scalars[index] == "\"" { index = skipQuoted(scalars, index) } else { index += 1 }
      }
      index += 1
      while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
      var key = ""
      while index < scalars.count, scalars[index] != "=", scalars[index] != ";" {
        key.unicodeScalars.append(scalars[index])
        index += 1
      }
      guard index < scalars.count, scalars[index] == "=" else { continue }
      index += 1
      var result = ""
      if index < scalars.count, scalars[index] == "\"" {
        index += 1
        while index < scalars.count, scalars[index] != "\"" {
          if scalars[index] == "\\", index + 1 < scalars.count { index += 1 }
          result.unicodeScalars.append(scalars[index])
          index += 1
        }
        index += 1
      } else {
        while index < scalars.count, scalars[index] != ";" {
          result.unicodeScalars.append(scalars[index])
          index += 1
        }
        result = result.trimmingCharacters(in: .whitespaces)
      }
      if key.trimmingCharacters(in: .whitespaces).lowercased() == parameter { return result }
    }
    return nil
  }

  private static func skipQuoted(_ scalars: [Unicode.Scalar], _ start: Int) -> Int {
    var index = start + 1
    while index < scalars.count, scalars[index] != "\"" {
      index += scalars[index] == "\\" ? 2 : 1
    }
    return index + 1
  }

  private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
    guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count
    else { return nil }
    var index = start
    let last = haystack.count - needle.count
    while index <= last {
      if haystack[index] == needle[0],
        haystack[index..<(index + needle.count)].elementsEqual(needle)
      {
        return index
      }
      index += 1
    }
    return nil
  }

  /// The value bytes of `part`.
  func value(of part: Part) -> Data { Data(bytes[part.valueRange]) }

  /// The body with each part's value replaced by what `transform` returns (`nil` leaves
  /// the value as it is); every other byte is copied unchanged.
  func replacingValues(_ transform: (Part, Data) -> Data?) -> Data {
    var result = Data()
    var copied = 0
    for part in parts {
      guard let replacement = transform(part, value(of: part)),
        replacement != value(of: part)
      else { continue }
      result.append(contentsOf: bytes[copied..<part.valueRange.lowerBound])
      result.append(replacement)
      copied = part.valueRange.upperBound
    }
    result.append(contentsOf: bytes[copied...])
    return result
  }
}
