import Foundation
import Testing
import UserBackendKit

/// Bad phone input is refused by the one shared check on every layer with phone sign-in,
/// with the same field and before any request (the emulator would answer differently).
@Suite("Phone input is refused the same way on every layer", .timeLimit(.minutes(1)))
struct SharedInputValidationTests {
  static let layers = IdentifierLayer.allCases.filter(\.hasPhoneSignIn)

  /// The field named by the `.invalidInput` an operation threw, or what it did instead.
  static func outcome(_ body: () async throws(UserBackendError) -> Void) async -> String {
    do {
      try await body()
      return "accepted"
    } catch {
      guard case .invalidInput(let field, _) = error.code else { return error.code.name }
      return "invalidInput:\(field)"
    }
  }

  @Test("empty or blank phone number", arguments: layers, ["", "   "])
  func blankPhoneNumber(_ layer: IdentifierLayer, _ number: String) async throws {
    let backend = try layer.backend(try EmulatorRig(.inProcess))
    let result = await Self.outcome { () async throws(UserBackendError) in
      _ = try await backend.startPhoneVerification(phoneNumber: number)
    }
    #expect(result == "invalidInput:phoneNumber")
  }

  @Test(
    "malformed verification ID or code", arguments: layers,
    [
      ("", "123456", "verificationID"), (" ", "123456", "verificationID"), ("v", "", "code"),
      ("v", "12a456", "code"),
    ])
  func badPhoneSignIn(_ layer: IdentifierLayer, _ input: (String, String, String)) async throws {
    let backend = try layer.backend(try EmulatorRig(.inProcess))
    let result = await Self.outcome { () async throws(UserBackendError) in
      _ = try await backend.signIn(verificationID: input.0, code: input.1)
    }
    #expect(result == "invalidInput:\(input.2)")
  }
}
