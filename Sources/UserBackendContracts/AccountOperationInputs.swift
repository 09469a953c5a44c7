import Foundation

/// Input of `updateProfile`: `{"displayName": S, "photoURL": S}`, at least one. An absent
/// key leaves the field unchanged; `""` removes it (the port's rule).
public struct ProfileInput: Sendable, Hashable, Codable {
  /// The new display name, `""` to remove it, `nil` to keep it.
  public var displayName: String?
  /// The new photo URL, `""` to remove it, `nil` to keep it.
  public var photoURL: String?

  /// An input value.
  public init(displayName: String? = nil, photoURL: String? = nil) {
    self.displayName = displayName
    self.photoURL = photoURL
  }

  /// Decodes; at least one key.
  /// - Throws: a format error for unknown keys or an empty object.
  public init(from decoder: any Decoder) throws {
    try ContractFormatError.checkKeys(decoder, allowed: ["displayName", "photoURL"])
    let container = try decoder.container(keyedBy: CodingKeys.self)
    displayName = try container.decodeIfPresent(String.self, forKey: .displayName)
    photoURL = try container.decodeIfPresent(String.self, forKey: .photoURL)
    if displayName == nil && photoURL == nil {
      throw ContractFormatError.invalid(decoder, nil, "give displayName, photoURL or both")
    }
  }
}

/// Input of `applyEmailVerification`: whose code (`email`) and whether to send a wrong
/// one. The code comes from ``ContractEnvironment/outOfBandCode(email:kind:)``; an
/// environment that cannot see codes skips the contract.
public struct OutOfBandInput: Sendable, Hashable, Codable {
  /// The email address the code was sent to.
  public var email: String
  /// `true`: send `<WRONG_OOB_CODE>`, a code no server issues, instead of the right one.
  public var wrongCode: Bool

  /// An input value.
  public init(email: String, wrongCode: Bool = false) {
    self.email = email
    self.wrongCode = wrongCode
  }

  /// Decodes; `email` is required.
  /// - Throws: a format error for unknown keys.
  public init(from decoder: any Decoder) throws {
    try ContractFormatError.checkKeys(decoder, allowed: ["email", "wrongCode"])
    let container = try decoder.container(keyedBy: CodingKeys.self)
    email = try container.decode(String.self, forKey: .email)
    wrongCode = try container.decodeIfPresent(Bool.self, forKey: .wrongCode) ?? false
  }
}

/// Input of `confirmPasswordReset`: whose code (`email`), the new password (never
/// printed), and whether to send a wrong code.
public struct PasswordResetInput: Sendable, Hashable, Codable {
  /// The email address the reset code was sent to.
  public var email: String
  /// The new password, verbatim.
  public var newPassword: String
  /// `true`: send `<WRONG_OOB_CODE>`, a code no server issues, instead of the right one.
  public var wrongCode: Bool

  /// An input value.
  public init(email: String, newPassword: String, wrongCode: Bool = false) {
    self.email = email
    self.newPassword = newPassword
    self.wrongCode = wrongCode
  }

  /// Decodes; `email` and `newPassword` are required.
  /// - Throws: a format error for unknown keys.
  public init(from decoder: any Decoder) throws {
    try ContractFormatError.checkKeys(decoder, allowed: ["email", "newPassword", "wrongCode"])
    let container = try decoder.container(keyedBy: CodingKeys.self)
    email = try container.decode(String.self, forKey: .email)
    newPassword = try container.decode(String.self, forKey: .newPassword)
    wrongCode = try container.decodeIfPresent(Bool.self, forKey: .wrongCode) ?? false
  }
}
