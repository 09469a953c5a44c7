import Foundation

/// Reading and writing the `"op"` / `"input"` pair of a step.
extension ContractOperation {
  private enum Keys: String, CodingKey { case op, input }

  private struct Seconds: Codable {
    var seconds: Double
    init(seconds: Double) { self.seconds = seconds }
    init(from decoder: any Decoder) throws {
      try ContractFormatError.checkKeys(decoder, allowed: ["seconds"])
      seconds = try decoder.container(keyedBy: CodingKeys.self).decode(
        Double.self, forKey: .seconds)
      // Bounded so that every clock reading stays convertible to whole seconds and
      // milliseconds (1e300 used to trap in a Double-to-Int conversion).
      guard seconds.isFinite, seconds >= 0, seconds <= 3_155_760_000 else {
        throw ContractFormatError.invalid(
          decoder, "seconds", "must be a number from 0 to 3155760000 (100 years)")
      }
    }
  }
  private struct ForceRefresh: Codable {
    var forceRefresh: Bool
    init(forceRefresh: Bool) { self.forceRefresh = forceRefresh }
    init(from decoder: any Decoder) throws {
      try ContractFormatError.checkKeys(decoder, allowed: ["forceRefresh"])
      forceRefresh =
        try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(
          Bool.self, forKey: .forceRefresh) ?? false
    }
  }
  private struct PhoneNumber: Codable {
    var phoneNumber: String
    init(phoneNumber: String) { self.phoneNumber = phoneNumber }
    init(from decoder: any Decoder) throws {
      try ContractFormatError.checkKeys(decoder, allowed: ["phoneNumber"])
      phoneNumber = try decoder.container(keyedBy: CodingKeys.self).decode(
        String.self, forKey: .phoneNumber)
    }
  }
  private struct Email: Codable {
    var email: String
    init(email: String) { self.email = email }
    init(from decoder: any Decoder) throws {
      try ContractFormatError.checkKeys(decoder, allowed: ["email"])
      email = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .email)
    }
  }
  private struct Subscription: Codable {
    var subscription: String?
    init(subscription: String?) { self.subscription = subscription }
    init(from decoder: any Decoder) throws {
      try ContractFormatError.checkKeys(decoder, allowed: ["subscription"])
      subscription = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(
        String.self, forKey: .subscription)
    }
  }
  private struct Password: Codable {
    var password: String
    init(password: String) { self.password = password }
    init(from decoder: any Decoder) throws {
      try ContractFormatError.checkKeys(decoder, allowed: ["password"])
      password = try decoder.container(keyedBy: CodingKeys.self).decode(
        String.self, forKey: .password)
    }
  }
  private struct DisplayName: Codable {
    var displayName: String?
    init(displayName: String?) { self.displayName = displayName }
    init(from decoder: any Decoder) throws {
      try ContractFormatError.checkKeys(decoder, allowed: ["displayName"])
      displayName = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(
        String.self, forKey: .displayName)
    }
  }
  private struct NoInput: Codable {
    init() {}
    init(from decoder: any Decoder) throws {
      try ContractFormatError.checkKeys(decoder, allowed: [])
    }
  }

  /// Reads `op` and `input` from the object at `decoder`.
  /// - Throws: `DecodingError.keyNotFound` for a missing `op` or required `input`,
  ///   a format error for an unknown operation or a bad input.
  static func decodeOperation(from decoder: any Decoder) throws -> ContractOperation {
    let container = try decoder.container(keyedBy: Keys.self)
    let rawName = try container.decode(String.self, forKey: .op)
    guard let name = OperationName(rawValue: rawName) else {
      throw ContractFormatError(
        codingPath: decoder.codingPath + [Keys.op], kind: .unknownOperation(rawName))
    }
    func input<T: Decodable>(_ type: T.Type) throws -> T {
      try container.decode(T.self, forKey: .input)
    }
    func optionalInput<T: Decodable>(_ type: T.Type) throws -> T? {
      try container.decodeIfPresent(T.self, forKey: .input)
    }
    switch name {
    case .signUp: return .signUp(try input(CredentialInput.self))
    case .signIn: return .signIn(try input(CredentialInput.self))
    case .idToken:
      return .idToken(forceRefresh: try optionalInput(ForceRefresh.self)?.forceRefresh ?? false)
    case .advanceClock: return .advanceClock(seconds: try input(Seconds.self).seconds)
    case .concurrent: return .concurrent(try input(ConcurrentInput.self))
    case .startPhoneVerification:
      return .startPhoneVerification(phoneNumber: try input(PhoneNumber.self).phoneNumber)
    case .signInWithPhone:
      return .signInWithPhone(try optionalInput(PhoneSignInInput.self) ?? PhoneSignInInput())
    case .signInWithIdentityProvider:
      return .signInWithIdentityProvider(try input(IdentityProviderInput.self))
    case .sendPasswordReset: return .sendPasswordReset(email: try input(Email.self).email)
    case .expectEvents:
      return .expectEvents(subscription: try optionalInput(Subscription.self)?.subscription)
    case .updateProfile: return .updateProfile(try input(ProfileInput.self))
    case .updatePassword: return .updatePassword(password: try input(Password.self).password)
    case .updateEmail: return .updateEmail(email: try input(Email.self).email)
    case .applyEmailVerification: return .applyEmailVerification(try input(OutOfBandInput.self))
    case .confirmPasswordReset: return .confirmPasswordReset(try input(PasswordResetInput.self))
    case .reauthenticate: return .reauthenticate(try input(CredentialInput.self))
    case .linkPassword: return .linkPassword(try input(CredentialInput.self))
    case .getDocument:
      return .getDocument(try optionalInput(DocumentTarget.self) ?? DocumentTarget())
    case .deleteDocument:
      return .deleteDocument(try optionalInput(DocumentTarget.self) ?? DocumentTarget())
    case .rawGetDocument:
      return .rawGetDocument(try optionalInput(DocumentTarget.self) ?? DocumentTarget())
    case .createDocument: return .createDocument(try input(DocumentCreateInput.self))
    case .updateDocument: return .updateDocument(try input(DocumentUpdateInput.self))
    case .ensureDocument:
      return .ensureDocument(displayName: try optionalInput(DisplayName.self)?.displayName)
    case .currentUser, .signOut, .restart, .signInAnonymously, .deleteAccount,
      .authStateChanges, .reload, .sendEmailVerification, .addDevice:
      _ = try optionalInput(NoInput.self)
      switch name {
      case .addDevice: return .addDevice
      case .currentUser: return .currentUser
      case .signOut: return .signOut
      case .restart: return .restart
      case .signInAnonymously: return .signInAnonymously
      case .deleteAccount: return .deleteAccount
      case .reload: return .reload
      case .sendEmailVerification: return .sendEmailVerification
      default: return .authStateChanges
      }
    }
  }

  /// Writes `op` and, when the operation has one, `input`.
  /// - Throws: encoder errors only.
  func encodeOperation(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(name.rawValue, forKey: .op)
    switch self {
    case .signUp(let value), .signIn(let value): try container.encode(value, forKey: .input)
    case .idToken(let force):
      try container.encode(ForceRefresh(forceRefresh: force), forKey: .input)
    case .advanceClock(let seconds):
      try container.encode(Seconds(seconds: seconds), forKey: .input)
    case .concurrent(let value): try container.encode(value, forKey: .input)
    case .startPhoneVerification(let number):
      try container.encode(PhoneNumber(phoneNumber: number), forKey: .input)
    case .signInWithPhone(let value): try container.encode(value, forKey: .input)
    case .signInWithIdentityProvider(let value): try container.encode(value, forKey: .input)
    case .sendPasswordReset(let email):
      try container.encode(Email(email: email), forKey: .input)
    case .expectEvents(let subscription):
      if let subscription {
        try container.encode(Subscription(subscription: subscription), forKey: .input)
      }
    case .updateProfile(let value): try container.encode(value, forKey: .input)
    case .updatePassword(let password):
      try container.encode(Password(password: password), forKey: .input)
    case .updateEmail(let email): try container.encode(Email(email: email), forKey: .input)
    case .applyEmailVerification(let value): try container.encode(value, forKey: .input)
    case .confirmPasswordReset(let value): try container.encode(value, forKey: .input)
    case .reauthenticate(let value), .linkPassword(let value):
      try container.encode(value, forKey: .input)
    case .getDocument(let target), .deleteDocument(let target), .rawGetDocument(let target):
      if target.user != nil { try container.encode(target, forKey: .input) }
    case .createDocument(let value): try container.encode(value, forKey: .input)
    case .updateDocument(let value): try container.encode(value, forKey: .input)
    case .ensureDocument(let displayName):
      if let displayName {
        try container.encode(DisplayName(displayName: displayName), forKey: .input)
      }
    case .currentUser, .signOut, .restart, .signInAnonymously, .deleteAccount,
      .authStateChanges, .reload, .sendEmailVerification, .addDevice:
      break
    }
  }
}
