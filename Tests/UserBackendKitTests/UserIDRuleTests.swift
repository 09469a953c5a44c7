import Foundation
import Testing
import UserBackendKit

/// The one user-ID rule both adapters and the CLI share.
@Suite("User-ID rule", .timeLimit(.minutes(1)))
struct UserIDRuleTests {
  @Test(
    "IDs that are one path segment and one document name are accepted",
    arguments: [
      "uid-1", "epaKcaYZqsREdSMY", "6f9619ff-8b86-d011-b42d-00c04fc964ff", "ü ser+1", "名前",
      "a.b", "...", String(repeating: "u", count: 128), "__x__", "a?b", "a#b", "a%2Fb",
      "user%40corp", "a" + String(repeating: "\u{301}", count: 127),
    ])
  func accepted(_ userID: String) throws {
    #expect(CredentialValidation.userIDProblem(userID) == nil)
    #expect(try CredentialValidation.validateUserID(userID) == userID)
  }

  @Test(
    "IDs that are not are refused, as input and as an answer",
    arguments: [
      "", ".", "..", "a/b", "a/../x?y#z", "org/42", "a\\b", "a\u{0}b", "a\tb",
      "a\nb", "a\u{7F}b", "a\u{85}b", String(repeating: "u", count: 129),
      // 129 code points in one Character: the limit counts code points.
      "a" + String(repeating: "\u{301}", count: 128),
    ])
  func refused(_ userID: String) {
    #expect(CredentialValidation.userIDProblem(userID) != nil)
    do {
      try CredentialValidation.validateUserID(userID, field: "--user")
      Issue.record("accepted as input")
    } catch {
      guard case .invalidInput(let field, _) = error.code else {
        Issue.record("expected invalidInput, got \(error)")
        return
      }
      #expect(field == "--user")
    }
    do {
      try CredentialValidation.validateAnsweredUserID(userID, in: "sign-in")
      Issue.record("accepted as an answer")
    } catch {
      guard case .malformedResponse(let reason) = error.code else {
        Issue.record("expected malformedResponse, got \(error)")
        return
      }
      #expect(reason.contains("sign-in"))
      if userID.count > 2 { #expect(!reason.contains(userID)) }
    }
  }
}
