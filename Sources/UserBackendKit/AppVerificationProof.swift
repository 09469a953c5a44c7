import Foundation

/// The proof that a phone verification is requested by the genuine app, which production
/// Firebase requires before it sends an SMS (`accounts:sendVerificationCode`). The app
/// obtains it from the platform; this library only carries it:
///
/// | Case | Where it comes from | Request fields |
/// |---|---|---|
/// | ``iosReceipt(receipt:secret:)`` | `accounts:verifyIosClient`, then the secret from a silent APNs push | `iosReceipt`, `iosSecret` |
/// | ``recaptcha(token:)`` | a solved reCAPTCHA v2 widget | `recaptchaToken` |
/// | ``recaptchaEnterprise(token:clientType:)`` | reCAPTCHA Enterprise | `captchaResponse`, `clientType`, `recaptchaVersion: "RECAPTCHA_ENTERPRISE"` |
/// | ``playIntegrity(token:)`` | Android Play Integrity | `playIntegrityToken` |
///
/// Backends that need no proof (the fake, NCMB, the emulators) ignore it. The values are
/// secrets: ``description`` names the kind only.
public enum AppVerificationProof: Sendable, Hashable, CustomStringConvertible,
  CustomDebugStringConvertible
{
  /// The client a reCAPTCHA Enterprise token was issued to.
  public enum ClientType: String, Sendable, Hashable, CaseIterable {
    /// `CLIENT_TYPE_WEB`.
    case web = "CLIENT_TYPE_WEB"
    /// `CLIENT_TYPE_IOS`.
    case ios = "CLIENT_TYPE_IOS"
    /// `CLIENT_TYPE_ANDROID`.
    case android = "CLIENT_TYPE_ANDROID"
  }

  /// An iOS app's receipt (from `accounts:verifyIosClient`) and the secret delivered to it
  /// by a silent push notification.
  case iosReceipt(receipt: String, secret: String)
  /// A reCAPTCHA v2 response token.
  case recaptcha(token: String)
  /// A reCAPTCHA Enterprise response token and the kind of client that obtained it.
  case recaptchaEnterprise(token: String, clientType: ClientType)
  /// An Android Play Integrity token.
  case playIntegrity(token: String)

  /// The longest value accepted, in Unicode scalars (code points; tokens are a few
  /// kilobytes at most).
  public static let maximumValueLength = 16_384

  /// The kinds accepted by ``init(parsing:)``: `ios`, `recaptcha`, `recaptcha-enterprise`,
  /// `play-integrity`.
  public static let kindNames = ["ios", "recaptcha", "recaptcha-enterprise", "play-integrity"]

  /// Reads the `KIND:VALUE` text form used by `baas phone start --app-verification` and
  /// `BAAS_APP_VERIFICATION`: `recaptcha:TOKEN`, `recaptcha-enterprise:TOKEN` (a web
  /// client), `play-integrity:TOKEN`, `ios:RECEIPT:SECRET` (split at the last colon).
  ///
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "appVerification")` for an
  ///   unknown kind or an empty, over-long or control-character value. The message never
  ///   contains the value.
  public init(parsing text: String) throws(UserBackendError) {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    // Split per code point: a ":" followed by a combining mark is still the separator.
    guard let (kindText, value) = ScalarSplit.first(":", in: trimmed) else {
      throw Self.invalid("expected KIND:VALUE with KIND one of \(Self.kindList)")
    }
    let kind = kindText.lowercased()
    switch kind {
    case "ios":
      guard let (receipt, secret) = ScalarSplit.last(":", in: value) else {
        throw Self.invalid("ios needs RECEIPT:SECRET")
      }
      self = .iosReceipt(receipt: receipt, secret: secret)
    case "recaptcha": self = .recaptcha(token: value)
    case "recaptcha-enterprise": self = .recaptchaEnterprise(token: value, clientType: .web)
    case "play-integrity": self = .playIntegrity(token: value)
    default:
      throw Self.invalid("unknown kind; use one of \(Self.kindList)")
    }
    try validate()
  }

  /// Checks that every value is non-empty, at most ``maximumValueLength`` characters and
  /// free of whitespace and control characters.
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "appVerification")`, without the
  ///   value.
  public func validate() throws(UserBackendError) {
    for (name, value) in namedValues {
      guard !value.isEmpty else { throw Self.invalid("the \(name) is empty") }
      guard CredentialValidation.limitedLength(value) <= Self.maximumValueLength else {
        throw Self.invalid("the \(name) is longer than \(Self.maximumValueLength) characters")
      }
      guard
        !value.unicodeScalars.contains(where: {
          $0.properties.generalCategory == .control || $0.properties.isWhitespace
        })
      else { throw Self.invalid("the \(name) contains spaces or control characters") }
    }
  }

  /// The secret values, for scrubbing them from errors and recordings.
  public var secrets: [String] { namedValues.map(\.1) }

  /// The kind only, e.g. `"AppVerificationProof.recaptcha(<redacted>)"`.
  public var description: String { "AppVerificationProof.\(kind)(<redacted>)" }
  /// Same as ``description``.
  public var debugDescription: String { description }

  /// `"iosReceipt"`, `"recaptcha"`, `"recaptchaEnterprise"`, `"playIntegrity"`.
  public var kind: String {
    switch self {
    case .iosReceipt: "iosReceipt"
    case .recaptcha: "recaptcha"
    case .recaptchaEnterprise: "recaptchaEnterprise"
    case .playIntegrity: "playIntegrity"
    }
  }

  private var namedValues: [(String, String)] {
    switch self {
    case .iosReceipt(let receipt, let secret): [("iOS receipt", receipt), ("iOS secret", secret)]
    case .recaptcha(let token): [("reCAPTCHA token", token)]
    case .recaptchaEnterprise(let token, _): [("reCAPTCHA Enterprise token", token)]
    case .playIntegrity(let token): [("Play Integrity token", token)]
    }
  }

  private static var kindList: String { kindNames.joined(separator: ", ") }

  private static func invalid(_ reason: String) -> UserBackendError {
    UserBackendError(.invalidInput(field: "appVerification", reason: reason))
  }
}

extension UserBackendError {
  /// The message every backend gives when an SMS code is refused, whether it is wrong, has
  /// expired or belongs to an unknown verification (the backend code tells which).
  public static let smsCodeRejectedMessage =
    "The SMS code is wrong or has expired; check it, or request a new code."
}
