import Foundation
import UserBackendKit

extension FirebaseUserBackend {
  /// Deletes the account a sign-up (or a first sign-in) has just created in another
  /// project than the configured one, and returns the error to throw.
  ///
  /// Decision: when the server issues an ID token for another project than
  /// ``FirebaseConfiguration/projectID`` (the API key, or the Auth emulator reached, belongs
  /// to another project), the adapter stores no session: that token would be refused by
  /// everything configured for the project (its Firestore documents, a server verifying
  /// its `aud`). But the server has already created the account, and nothing configured
  /// this way can reach it again: an orphan, which also holds the email address so that
  /// a second sign-up after fixing only the project ID would fail. The adapter was handed
  /// the account's ID token, the one credential that can delete it, so it deletes it at
  /// once (`accounts:delete`), best effort, and says so in the error; when that fails the
  /// error says the account remains and where. Only an answer that created the account
  /// (`isNewUser`) does this: an existing account is never deleted.
  ///
  /// - Parameters:
  ///   - idToken: the new account's ID token (a secret: never in the message).
  ///   - answer: the endpoint's name (`"accounts:signUp"`).
  ///   - reason: the mismatch, as ``FirebaseSessionBuilder/projectMismatch(_:projectID:answer:)``
  ///     says it.
  /// - Returns: `.misconfigured(setting: "projectID")` with `reason` and what became of the
  ///   account.
  func removingCreatedAccount(idToken: String, answer: String, reason: String) async
    -> UserBackendError
  {
    let outcome: String
    do {
      _ = try await client.send(
        DeleteAccountRequest(idToken: idToken), capability: .accountDeletion,
        secrets: [idToken])
      outcome =
        " The account the \(answer) call created in that project was deleted again, so "
        + "nothing is left behind; no session was stored."
    } catch {
      outcome =
        " The account the \(answer) call created in that project could not be deleted "
        + "(\(error.description)): it remains there; delete it in that project. No session "
        + "was stored."
    }
    return UserBackendError(.misconfigured(setting: "projectID", reason: reason + outcome))
  }
}
