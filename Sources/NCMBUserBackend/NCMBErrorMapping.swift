import Foundation
import UserBackendKit

/// Maps NCMB error codes (`docs/wire/ncmb.md` §4, "Errors") to portable
/// ``UserBackendError`` cases, always keeping the raw code as `backendCode` and the server's
/// message as `message`.
///
/// | Code | Portable case |
/// |---|---|
/// | E401002 (ID/password wrong), E401003 (OAuth token rejected) | `invalidCredentials` |
/// | E409001 (`{0} is duplication.`) | `accountAlreadyExists` |
/// | E400002–E400009 (`{0} is empty.`, …) | `invalidInput(field: {0})`; `mailAddress is invalid format.` → `invalidEmail` |
/// | E401001, E404001, E404006 on a call that sent a session token | `sessionExpired` (the caller clears the session) |
/// | E403002 (signature rejected) | `misconfigured(setting: "clientKey")` |
/// | E404005 (no such application) | `misconfigured(setting: "applicationKey")` |
/// | E403005 for `anonymous` / an identity provider (`apple` …) | `unsupported` (disabled for the application) |
/// | E403005 for another field (`sessionToken must not be entered.`) | `invalidInput(field: {0})` |
/// | E403001 (the ACL refused), E403003 (a prohibited operation, such as changing `authData`) | `permissionDenied` |
/// | E429xxx | `rateLimited(retryAfter:)` from `Retry-After` |
/// | E100001 (response signature mismatch) | `malformedResponse` |
/// | everything else (E400000, E400001, E401000, E401004, other E403xxx, E404xxx, E405xxx, E413xxx, E414000, E415001, E5xxxxx, unknown codes) | `server(status:code:message:)` |
enum NCMBErrorMapping {
  /// Codes that mean the session token no longer works when a call sent one: invalid,
  /// expired or revoked token (E401001), the user is gone (E404001, E404006).
  static let sessionRejectionCodes: Set<String> = ["E401001", "E404001", "E404006"]

  /// The portable error for an NCMB error answer.
  ///
  /// - Parameters:
  ///   - code: the `code` field, e.g. `E409001`.
  ///   - message: the `error` field, e.g. `"userName is duplication."`.
  ///   - status: the HTTP status of the answer.
  ///   - retryAfter: the `Retry-After` header in seconds, when sent.
  ///   - sentSessionToken: whether the request carried `X-NCMB-Apps-Session-Token`.
  static func error(
    code: String, message: String?, status: Int, retryAfter: TimeInterval? = nil,
    sentSessionToken: Bool
  ) -> UserBackendError {
    let backendCode = BackendErrorCode(rawValue: code)
    func make(_ portable: UserBackendError.Code) -> UserBackendError {
      UserBackendError(portable, backendCode: backendCode, message: message ?? "")
    }
    let field = message.flatMap(subject(of:))
    if sentSessionToken, sessionRejectionCodes.contains(code) { return make(.sessionExpired) }
    switch code {
    case "E401002", "E401003":
      return make(.invalidCredentials)
    case "E409001":
      return make(.accountAlreadyExists)
    case "E400003":
      return make(.invalidInput(field: field ?? "request", reason: "must not be empty"))
    case "E400004" where field == "mailAddress":
      return make(.invalidEmail)
    case "E400002", "E400004", "E400005", "E400006", "E400007", "E400008", "E400009":
      return make(.invalidInput(field: field ?? "request", reason: message ?? "is invalid"))
    case "E403002":
      return make(
        .misconfigured(
          setting: "clientKey",
          reason: "the server rejected the request signature (check the client key)"))
    case "E404005":
      return make(
        .misconfigured(
          setting: "applicationKey", reason: "the server does not know this application key"))
    case "E403005" where field == "anonymous":
      return make(.unsupported(capability: .anonymousSignIn))
    case "E403005" where field.map(identityProviderKeys.contains) == true:
      return make(.unsupported(capability: .identityProviderSignIn))
    case "E403005" where field != nil:
      return make(.invalidInput(field: field ?? "request", reason: message ?? "must not be sent"))
    case "E403001", "E403003":
      return make(.permissionDenied)
    case "E100001":
      return make(.malformedResponse(reason: "the response signature does not match"))
    case _ where code.hasPrefix("E429") || status == 429:
      return make(.rateLimited(retryAfter: retryAfter))
    default:
      return make(.server(status: status, code: code, message: message))
    }
  }

  /// The `authData` keys of identity providers.
  static let identityProviderKeys: Set<String> = ["apple", "facebook", "twitter", "google"]

  /// The `{0}` of a message like `"password is empty."`, `"userName is duplication."` or
  /// `"Either userName or mailAddress."`: a single identifier-like word, or `nil`.
  static func subject(of message: String) -> String? {
    let words = message.split(separator: " ")
    let candidate: Substring?
    if words.first == "Either", words.count >= 2 {
      candidate = words[1]
    } else if words.count >= 2,
      words[1] == "is" || words[1] == "size" || words[1] == "must"
        || words[1] == "does"
    {
      candidate = words[0]
    } else {
      candidate = nil
    }
    guard let candidate, !candidate.isEmpty,
      candidate.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
    else { return nil }
    return String(candidate)
  }
}
