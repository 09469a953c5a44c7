import Foundation
import UserBackendKit

/// `POST accounts:sendVerificationCode`: sends an SMS code to an E.164 number and returns
/// the `sessionInfo` that identifies the verification.
///
/// Body: `phoneNumber`, plus the app-verification proof in the fields the service and the
/// official SDKs use: `iosReceipt` + `iosSecret`; `recaptchaToken`; `captchaResponse` +
/// `clientType` + `recaptchaVersion: "RECAPTCHA_ENTERPRISE"`; `playIntegrityToken`.
/// Without a proof only `phoneNumber` is sent (the emulator needs none).
struct SendVerificationCodeRequest: FirebaseEndpoint, Encodable, Hashable {
  typealias Response = SendVerificationCodeResponse
  static let service = FirebaseService.identityToolkit("accounts:sendVerificationCode")

  /// The E.164 phone number.
  var phoneNumber: String
  /// The iOS app receipt.
  var iosReceipt: String?
  /// The iOS secret from the silent push.
  var iosSecret: String?
  /// A reCAPTCHA v2 token.
  var recaptchaToken: String?
  /// A reCAPTCHA Enterprise token.
  var captchaResponse: String?
  /// `CLIENT_TYPE_WEB`, `CLIENT_TYPE_IOS` or `CLIENT_TYPE_ANDROID`, with `captchaResponse`.
  var clientType: String?
  /// `RECAPTCHA_ENTERPRISE`, with `captchaResponse`.
  var recaptchaVersion: String?
  /// An Android Play Integrity token.
  var playIntegrityToken: String?

  /// The request for `phoneNumber` carrying `proof` in its documented fields.
  init(phoneNumber: String, proof: AppVerificationProof? = nil) {
    self.phoneNumber = phoneNumber
    switch proof {
    case .iosReceipt(let receipt, let secret)?:
      iosReceipt = receipt
      iosSecret = secret
    case .recaptcha(let token)?:
      recaptchaToken = token
    case .recaptchaEnterprise(let token, let clientType)?:
      captchaResponse = token
      self.clientType = clientType.rawValue
      recaptchaVersion = "RECAPTCHA_ENTERPRISE"
    case .playIntegrity(let token)?:
      playIntegrityToken = token
    case nil:
      break
    }
  }
}

/// The `accounts:sendVerificationCode` answer.
struct SendVerificationCodeResponse: FirebaseResponse, Hashable {
  /// The verification ID to send back with the code.
  let sessionInfo: String
}

/// `POST accounts:signInWithPhoneNumber`: signs in (or up) with the `sessionInfo` and the
/// SMS code.
struct SignInWithPhoneNumberRequest: FirebaseEndpoint, Encodable, Hashable {
  typealias Response = SignInWithPhoneNumberResponse
  static let service = FirebaseService.identityToolkit("accounts:signInWithPhoneNumber")

  /// The verification ID from `accounts:sendVerificationCode`.
  var sessionInfo: String
  /// The SMS code.
  var code: String
}

/// The `accounts:signInWithPhoneNumber` answer. When linking to a number owned by another
/// account the server sends `temporaryProof` and no tokens (not used here).
struct SignInWithPhoneNumberResponse: FirebaseResponse, Hashable {
  /// The user's ID.
  let localId: String?
  /// The ID token.
  let idToken: String?
  /// The refresh token.
  let refreshToken: String?
  /// The ID token lifetime.
  let expiresIn: WireSeconds?
  /// The verified E.164 number.
  let phoneNumber: String?
  /// `true` when this sign-in created the account.
  let isNewUser: Bool?
  /// Present instead of tokens when the number belongs to another account.
  let temporaryProof: String?
}
