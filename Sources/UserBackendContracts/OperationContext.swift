import Foundation
import UserBackendKit

/// Performs the stateless operations (everything but restart, clock, concurrency and
/// subscriptions) against a backend; safe to use from concurrent tasks.
struct OperationContext: Sendable {
  let environment: any ContractEnvironment
  let records: [String: StepValue]
  let latestVerificationID: String?
  /// Where out-of-band codes go, so that no report prints them.
  let secrets: SecretSink

  /// Runs `operation` on `backend`.
  /// - Throws: the backend's error; ``ContractSkip`` when the environment cannot supply
  ///   an SMS code; ``ContractExecution/StepFailure`` for a broken reference.
  func perform(_ operation: ContractOperation, on backend: any UserBackend) async throws
    -> StepValue
  {
    switch operation {
    case .signUp(let input): return .session(try await backend.signUp(credential(input)))
    case .signIn(let input): return .session(try await backend.signIn(credential(input)))
    case .currentUser: return .user(try await backend.currentUser())
    case .signOut:
      try await backend.signOut()
      return .none
    case .idToken(let force):
      let refreshesBefore = await environment.tokenRefreshRequests()
      let token = try await backend.idToken(forceRefresh: force)
      var refreshes: Int?
      if let refreshesBefore, let after = await environment.tokenRefreshRequests() {
        refreshes = after - refreshesBefore
      }
      let subject: String?
      do {
        subject = try await environment.tokenSubject(token)
      } catch {
        throw ContractExecution.StepFailure(
          expected: "the environment to read the token's subject", actual: describeError(error))
      }
      return .token(
        token, user: try? await backend.currentUser(), subject: subject,
        refreshRequests: refreshes)
    case .signInAnonymously: return .session(try await backend.signInAnonymously())
    case .startPhoneVerification(let number):
      return .verificationID(try await backend.startPhoneVerification(phoneNumber: number))
    case .signInWithPhone(let input): return try await signInWithPhone(input, backend)
    case .signInWithIdentityProvider(let input):
      return .session(try await backend.signIn(with: identityProviderCredential(input)))
    case .sendPasswordReset(let email):
      try await backend.sendPasswordReset(email: email)
      return .none
    case .deleteAccount:
      try await backend.deleteAccount()
      return .none
    case .reload, .updateProfile, .updatePassword, .updateEmail, .sendEmailVerification,
      .applyEmailVerification, .confirmPasswordReset, .reauthenticate, .linkPassword:
      return try await performAccountOperation(operation, on: backend)
    case .getDocument, .createDocument, .updateDocument, .deleteDocument, .ensureDocument,
      .rawGetDocument:
      return try await performDocumentOperation(operation, on: backend)
    case .restart, .advanceClock, .concurrent, .authStateChanges, .expectEvents, .addDevice:
      throw ContractExecution.StepFailure(
        expected: "an operation that can run here", actual: operation.name.rawValue)
    }
  }

  func credential(_ input: CredentialInput) -> PasswordCredential {
    if let username = input.username {
      return .username(username, password: input.password)
    }
    return .email(input.email ?? "", password: input.password)
  }

  private func signInWithPhone(_ input: PhoneSignInInput, _ backend: any UserBackend)
    async throws -> StepValue
  {
    let id: String? =
      if let label = input.verification {
        if case .verificationID(let id) = records[label] { id } else { nil }
      } else {
        latestVerificationID
      }
    guard let id else {
      throw ContractExecution.StepFailure(
        expected: "a verification ID from an earlier startPhoneVerification step",
        actual: "none succeeded")
    }
    let code: String?
    do {
      code = try await environment.phoneVerificationCode(for: id)
    } catch {
      throw ContractExecution.StepFailure(
        expected: "the environment to read the SMS code", actual: describeError(error))
    }
    guard let code else {
      throw ContractSkip("the environment cannot read SMS verification codes", byEnvironment: true)
    }
    let sent = input.wrongCode ? Self.wrongCode(for: code) : code
    return .session(try await backend.signIn(verificationID: id, code: sent))
  }

  /// A code of the same length that differs from `code` in every position.
  static func wrongCode(for code: String) -> String {
    String(
      code.map { character in
        guard let digit = character.wholeNumberValue, character.isASCII else { return "0" }
        return Character("\((digit + 1) % 10)")
      })
  }

  /// An unsigned test ID token from the input's claims plus `nonce`, `iat` and `exp`.
  func identityProviderCredential(_ input: IdentityProviderInput) -> IdentityProviderCredential {
    var claims = input.claims.mapValues(\.foundationObject)
    let now = (environment.clock?.now() ?? Date()).timeIntervalSince1970.rounded(.down)
    if claims["iat"] == nil { claims["iat"] = Int(now) }
    if claims["exp"] == nil { claims["exp"] = Int(now) + 600 }
    if let rawNonce = input.rawNonce {
      let hashed = input.wrongNonce ? rawNonce + "-not-the-nonce" : rawNonce
      claims["nonce"] = Crypto.sha256Hex(hashed)
    }
    return IdentityProviderCredential(
      provider: input.provider, idToken: JSONWebToken.unsigned(claims: claims),
      rawNonce: input.rawNonce, authorizationCode: "contract-apple-authorization-code")
  }
}
