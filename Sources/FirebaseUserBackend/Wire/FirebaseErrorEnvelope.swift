import Foundation

/// The error body Google APIs send (docs/wire/firebase-auth.md §5.1):
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

/// A Firebase error message split at the first `" : "`: the code before it and the
/// detail after it (`docs/wire/firebase-auth.md` §5.1). A message without a separator is
/// all code, unless it is a sentence (contains spaces), which has no code.
struct FirebaseErrorMessage: Sendable, Hashable {
  /// The code, e.g. `"WEAK_PASSWORD"`, or `nil` for a free-text message.
  let code: String?
  /// The detail, e.g. `"Password should be at least 6 characters"`, or `nil`.
  let detail: String?

  /// Splits `message`.
  init(_ message: String) {
    let trimmed = message.trimmingCharacters(in: .whitespacesAndNewlines)
    if let range = trimmed.range(of: " : ") {
      let head = trimmed[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
      let tail = trimmed[range.upperBound...].trimmingCharacters(in: .whitespaces)
      code = head.isEmpty ? nil : head
      detail = tail.isEmpty ? nil : tail
    } else if trimmed.contains(" ") || trimmed.isEmpty {
      code = nil
      detail = trimmed.isEmpty ? nil : trimmed
    } else {
      code = trimmed
      detail = nil
    }
  }
}
