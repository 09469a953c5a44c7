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
    case .rawGetDocument(let target):
      return try await rawRead(target, on: backend)
    default:
      throw ContractExecution.StepFailure(
        expected: "a document operation", actual: operation.name.rawValue)
    }
  }

  /// `rawGetDocument`: the environment's own read of the target's document with the
  /// signed-in user's bearer token (read without a refresh, as the adapter holds it).
  private func rawRead(_ target: DocumentTarget, on backend: any UserBackend) async throws
    -> StepValue
  {
    guard let signedIn = try await backend.currentUser() else {
      throw ContractExecution.StepFailure(
        expected: "a signed-in user whose token the read presents", actual: "nobody is signed in")
    }
    let owner = try userID(target.user) ?? signedIn.id
    let token = try await backend.idToken(forceRefresh: false)
    let answer: ServerAnswer?
    do {
      answer = try await environment.rawDocumentRead(userID: owner, bearerToken: token)
    } catch {
      throw ContractExecution.StepFailure(
        expected: "the environment's own read to reach the server", actual: describeError(error))
    }
    guard let answer else {
      throw ContractExecution.StepFailure(
        expected: "an environment that sends requests of its own (rawServerRequests)",
        actual: "this one cannot")
    }
    return .serverAnswer(answer)
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
