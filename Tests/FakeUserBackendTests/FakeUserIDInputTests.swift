import Foundation
import Testing
import UserBackendKit

@testable import FakeUserBackend

/// The fake checks a given user ID by the rule the Firebase and NCMB adapters and the CLI
/// apply (`CredentialValidation.userIDProblem`), first: signed in or not, an ID that cannot
/// be one is `.invalidInput(field: "userID")`, not `permissionDenied` or `notSignedIn`.
@Suite("The fake's document calls check the user ID first", .timeLimit(.minutes(1)))
struct FakeUserIDInputTests {
  static let unusable = [
    "", ".", "..", "a/b", "a\\b", "x\u{0}y", "line\nbreak",
    String(
      repeating: "u", count: 129),
  ]

  static func call(_ operation: String, _ store: any UserDocumentStore, userID: String)
    async -> UserBackendError?
  {
    do {
      switch operation {
      case "get": _ = try await store.document(userID: userID)
      case "create": _ = try await store.createDocument(userID: userID, fields: ["a": .null])
      case "set":
        _ = try await store.updateDocument(userID: userID, setting: ["a": .null], removing: [])
      default: try await store.deleteDocument(userID: userID)
      }
      return nil
    } catch {
      return error
    }
  }

  @Test(
    "an unusable userID is invalidInput(userID), signed out or in",
    arguments: ["get", "create", "set", "delete"], unusable)
  func unusableUserID(_ operation: String, userID: String) async throws {
    let fixture = try Fixture()
    for signedIn in [false, true] {
      if signedIn {
        _ = try await fixture.backend.signUp(.email("ann@example.com", password: "secret1"))
      }
      let error = await Self.call(operation, fixture.backend.userDocuments, userID: userID)
      guard case .invalidInput(let field, _) = error?.code else {
        Issue.record(
          "signed in \(signedIn): expected invalidInput, got \(String(describing: error))")
        continue
      }
      #expect(field == "userID")
    }
  }
}
