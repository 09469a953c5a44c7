import BackendHTTP
import Foundation

/// What a body is, one rule for import, lint, redaction and replay matching, so that what
/// one of them reads as a form the others do not read as text.
///
/// The media type is the message's first `Content-Type` header field when it has a
/// non-empty one (what the server read, and all a live request has), else the type the
/// HAR file declares for the body (`postData.mimeType`, `content.mimeType`): an export that
/// leaves out header fields, or states a form's type only there, is read as it declares.
/// Loading a HAR entry (``HAREntry/httpRequest(index:)``) writes that declared type into
/// a missing `Content-Type`, so every later step reads the same header.
///
/// The bytes are then read in one order (``read(_:mediaType:)``): JSON (by the type,
/// including `+json`, or by a first `{`/`[`), `multipart/form-data` (the boundary from the
/// type, or from the body's first `--boundary` line), an
/// `application/x-www-form-urlencoded` form (by the type), else UTF-8 text, else bytes.
enum BodyType {
  /// One body, read.
  enum Reading {
    /// A JSON object or array (parsed).
    case json(Any)
    /// A multipart body.
    case multipart(MultipartFormData)
    /// Form text (`a=1&b=2`).
    case form(String)
    /// UTF-8 text that is none of the above.
    case text(String)
    /// Bytes that are not UTF-8.
    case binary
  }

  /// The media type a body is read by: `header` (the first `Content-Type` field) when it
  /// is not blank, else `declared` (the HAR `mimeType`), else `""`. Case is kept: a
  /// multipart boundary is case-sensitive.
  static func mediaType(header: String?, declared: String?) -> String {
    if let header, !header.allSatisfy({ $0 == " " || $0 == "\t" }) { return header }
    return declared ?? ""
  }

  /// The first `Content-Type` value among `headers` (names compared ignoring case).
  static func contentType(_ headers: [(name: String, value: String)]) -> String? {
    headers.first { $0.name.lowercased() == "content-type" }?.value
  }

  /// `body` read by `mediaType` (``mediaType(header:declared:)``).
  static func read(_ body: Data, mediaType: String) -> Reading {
    let lowercased = mediaType.lowercased()
    if let json = BodyCoding.jsonObject(body, mediaType: lowercased) { return .json(json) }
    if let multipart = MultipartFormData(body, contentType: mediaType) {
      return .multipart(multipart)
    }
    guard let text = String(data: body, encoding: .utf8) else { return .binary }
    return lowercased.contains("x-www-form-urlencoded") ? .form(text) : .text(text)
  }
}
