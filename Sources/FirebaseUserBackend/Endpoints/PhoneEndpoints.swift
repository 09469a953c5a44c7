import Foundation

/// `POST accounts:sendVerificationCode`: sends an SMS code to an E.164 number and returns
/// the `sessionInfo` that identifies the verification (docs/wire/firebase-auth.md §3,
/// step 1). App verification fields are not sent; production projects that demand them
/// answer with an app-verification error code.
struct SendVerificationCodeRequest: FirebaseEndpoint, Encodable, Hashable {
  typealias Response = SendVerificationCodeResponse
  static let service = FirebaseService.identityToolkit("accounts:sendVerificationCode")

  /// The E.164 phone number.
  var phoneNumber: String
}

/// The `accounts:sendVerificationCode` answer.
struct SendVerificationCodeResponse: FirebaseResponse, Hashable {
  /// The verification ID to send back with the code.
  let sessionInfo: String
}

/// `POST accounts:signInWithPhoneNumber`: signs in (or up) with the `sessionInfo` and the
/// SMS code (`docs/wire/firebase-auth.md` §3, step 2).
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
