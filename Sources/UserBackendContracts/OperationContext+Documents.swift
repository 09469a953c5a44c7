import Foundation
import UserBackendKit

/// The document operations (issue 13), on `backend.userDocuments`.
extension OperationContext {
  /// Runs a document operation.
  /// - Throws: the backend's error; ``ContractExecution/StepFailure`` when a `user` label
  ///   has no user.
  func performDocumentOperation(_ operation: ContractOperation, on backend: any UserBackend)
    async throws -> StepValue
  {
    let store = backend.userDocuments
    switch operation {
    case .getDocument(let target):
      return .document(try await store.document(userID: try userID(target.user)))
    case .createDocument(let input):
      return .creation(
        try await store.createDocument(
          userID: try userID(input.user), fields: input.fields.mapValues(\.value)))
    case .updateDocument(let input):
      return .document(
        try await store.updateDocument(
          userID: try userID(input.user), setting: input.fields.mapValues(\.value),
          removing: Set(input.remove)))
    case .deleteDocument(let target):
      try await store.deleteDocument(userID: try userID(target.user))
      return .none
    case .ensureDocument(let displayName):
      // With nobody signed in the flow still runs (with an empty `uid`), so that the step
      // sees the backend's own `notSignedIn`, not one made up by the runner.
      let user = try await backend.currentUser() ?? User(id: "")
      return .creation(
        try await store.ensureDocument(for: user, displayName: displayName ?? "anonymous"))
    default:
      throw ContractExecution.StepFailure(
        expected: "a document operation", actual: operation.name.rawValue)
    }
  }

  /// The user ID of the labelled step's user; `nil` (the signed-in user) without a label.
  private func userID(_ label: String?) throws -> String? {
    guard let label else { return nil }
    guard let user = records[label]?.user else {
      throw ContractExecution.StepFailure(
        expected: "a user from step \"\(label)\"", actual: "that step produced no user")
    }
    return user.id
  }
}
