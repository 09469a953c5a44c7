import Testing
import UserBackendKit

@Suite("CredentialValidation for identity-provider credentials", .timeLimit(.minutes(2)))
struct IdentityProviderValidationTests {
  @Test(
    "bad fields are named",
    arguments: [
      ("", "t.t.", "n", "provider"),
      ("  ", "t.t.", nil, "provider"),
      ("apple.com", "", "n", "idToken"),
      ("apple.com", "t.t.", "", "rawNonce"),
    ] as [(String, String, String?, String)])
  func badField(provider: String, idToken: String, rawNonce: String?, field: String) throws {
    let error = try #require(throws: UserBackendError.self) {
      _ = try CredentialValidation.validate(
        IdentityProviderCredential(provider: provider, idToken: idToken, rawNonce: rawNonce))
    }
    guard case .invalidInput(let named, _) = error.code else {
      Issue.record("expected invalidInput, got \(error)")
      return
    }
    #expect(named == field)
  }

  @Test("a good credential comes back with the provider trimmed")
  func trimmed() throws {
    let checked = try CredentialValidation.validate(
      IdentityProviderCredential(provider: " apple.com ", idToken: "t.t.", rawNonce: nil))
    #expect(checked.provider == "apple.com")
    #expect(checked.rawNonce == nil)
  }
}
