import Foundation

/// The error body Google APIs send:
/// `{"error":{"code":400,"message":"CODE : detail","status":"…","errors":[…],"details":[…]}}`.
///
/// Also accepted: an OAuth-style `{"error":"invalid_grant","error_description":"…"}`,
/// read as code and detail. Unknown fields are ignored.
struct FirebaseErrorEnvelope: Decodable, Sendable, Hashable {
  /// One `errors[]` item.
  struct Item: Decodable, Sendable, Hashable {
    /// E.g. `"invalid"`, `"badRequest"`, `"keyInvalid"`.
    let reason: String?
  }

  /// One `details[]` item (`google.rpc.ErrorInfo`).
  struct Detail: Decodable, Sendable, Hashable {
    /// E.g. `"API_KEY_INVALID"`.
    let reason: String?
  }

  /// The `error` object.
  struct Body: Decodable, Sendable, Hashable {
    /// The HTTP status repeated, when sent.
    let code: Int?
    /// `"CODE"` or `"CODE : detail"`, or a sentence for gateway errors.
    let message: String?
    /// The gRPC status name, e.g. `"INVALID_ARGUMENT"`, `"PERMISSION_DENIED"`.
    let status: String?
    /// `errors[]`.
    let errors: [Item]?
    /// `details[]`.
    let details: [Detail]?
  }

  /// The `error` object.
  let error: Body

  private enum CodingKeys: String, CodingKey {
    case error
    case errorDescription = "error_description"
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    if let body = try? container.decode(Body.self, forKey: .error) {
      error = body
    } else {
      let code = try container.decode(String.self, forKey: .error)
      let detail = try container.decodeIfPresent(String.self, forKey: .errorDescription)
      error = Body(
        code: nil, message: detail.map { "\(code) : \($0)" } ?? code, status: nil,
        errors: nil, details: nil)
    }
  }

  /// Every `reason` in `errors[]` and `details[]`.
  var reasons: [String] {
    (error.errors ?? []).compactMap(\.reason) + (error.details ?? []).compactMap(\.reason)
  }
}

/// A Firebase error message split as the official SDKs split it: at the first colon, both
/// sides trimmed. `CODE`, `CODE:`, `CODE: detail`, `CODE : detail` and `CODE :detail` all
/// have the code `CODE`; the detail is everything after the first colon (colons included).
///
/// The part before the colon (or the whole message, without one) is a code only when it
/// looks like one: ASCII letters, digits, `_`, `-` and `.`, no spaces. Anything else is a
/// sentence (`API key not valid. …`, `Invalid JSON payload received. Unknown name "x":
/// …`), which has no code and is all detail.
struct FirebaseErrorMessage: Sendable, Hashable {
  /// The code, e.g. `"WEAK_PASSWORD"`, or `nil` for a free-text message.
  let code: String?
  /// The detail, e.g. `"Password should be at least 6 characters"`, or `nil`.
  let detail: String?

  /// Splits `message`.
  init(_ message: String) {
    let trimmed = message.trimmingCharacters(in: .whitespacesAndNewlines)
    let head: Substring
    let tail: Substring?
    if let colon = trimmed.firstIndex(of: ":") {
      head = trimmed[..<colon]
      tail = trimmed[trimmed.index(after: colon)...]
    } else {
      head = Substring(trimmed)
      tail = nil
    }
    let candidate = head.trimmingCharacters(in: .whitespacesAndNewlines)
    guard Self.looksLikeCode(candidate) else {
      code = nil
      detail = trimmed.isEmpty ? nil : trimmed
      return
    }
    code = candidate
    let rest = tail?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    detail = rest.isEmpty ? nil : rest
  }

  /// `true` for `EMAIL_EXISTS`, `invalid_grant`, `API_KEY_INVALID`: non-empty, only ASCII
  /// letters, digits, `_`, `-`, `.`.
  static func looksLikeCode(_ text: String) -> Bool {
    !text.isEmpty
      && text.unicodeScalars.allSatisfy { scalar in
        scalar.isASCII
          && (CharacterSet.alphanumerics.contains(scalar) || "_-.".unicodeScalars.contains(scalar))
      }
  }
}
