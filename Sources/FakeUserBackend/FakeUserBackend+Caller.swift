import AccountDatabase
import Foundation
import UserBackendKit

extension FakeUserBackend {
  /// The stored session (refreshed when expired), once the store confirms whose it is:
  /// every operation on an account or its document acts for this session's user only.
  ///
  /// The caller is whoever the store issued the session's refresh token to (the fake's
  /// unsigned ID token proves nothing), as Firebase takes the caller from the verified ID
  /// token and never from what the client says about itself. A session whose user ID
  /// names another account than its token's (an edited session file) is a broken session,
  /// not a document matter: it is cleared (only that sign-in) and the operation is
  /// `.sessionExpired` (`INVALID_ID_TOKEN`, as Firebase answers a token that is not the
  /// session's), for account and document operations alike. (`PERMISSION_DENIED` is the
  /// document owner rule: asking for another user's document.) A token the store does not
  /// know forces a
  /// refresh, which fails and clears the session (`.sessionExpired`), as the Firebase
  /// adapter's 401 handling does. When the session's account no longer exists, the
  /// session is returned unchecked and the operation reports the missing account.
  /// - Throws: ``UserBackendKit/UserBackendError`` `.notSignedIn`, `.sessionExpired`,
  ///   `.server` (`DATABASE_ERROR`), `.misconfigured`.
  func callerSession() async throws(UserBackendError) -> AuthSession {
    try await checkedCaller(try await validSession(forceRefresh: false)) {
      () async throws(UserBackendError) -> AuthSession in
      try await validSession(forceRefresh: true)
    }
  }

  /// ``callerSession()`` for a change that replaces the session's tokens or revokes them
  /// (a password or email change) or rewrites the stored session (a profile change):
  /// `change` runs with the caller's session, and stores its result, under the session
  /// engine's refresh lock
  /// (``UserBackendKit/SessionEngine/withExclusiveSession(needsRefresh:exchange:_:)``),
  /// so no refresh rotates the refresh token under it, in this process or another sharing
  /// the session file.
  /// - Throws: ``UserBackendKit/UserBackendError`` as ``callerSession()``, or what
  ///   `change` throws.
  func withExclusiveCaller<T: Sendable>(
    _ change: (AuthSession) async throws(UserBackendError) -> T
  ) async throws(UserBackendError) -> T {
    try await sessions.withExclusiveSession(needsRefresh: needsRefresh, exchange: exchanger) {
      session, refresh async throws(UserBackendError) -> T in
      try await change(try await checkedCaller(session, refresh: refresh))
    }
  }

  /// `session` once the store confirms whose it is (see ``callerSession()``); `refresh`
  /// forces one refresh when the store does not know its refresh token.
  private func checkedCaller(
    _ session: AuthSession, refresh: () async throws(UserBackendError) -> AuthSession
  ) async throws(UserBackendError) -> AuthSession {
    var session = session
    let token = session.refreshToken ?? ""
    var caller = try await storeCall { store in try store.userID(forRefreshToken: token) }
    if caller == nil {
      // The account is gone (with its tokens): the operation itself reports that, as
      // it always has (`USER_NOT_FOUND`); there is nobody else's data to reach.
      let user = session.user.id
      guard try await storeCall({ store in try store.user(id: user) }) != nil else {
        return session
      }
      session = try await refresh()
      let refreshed = session.refreshToken ?? ""
      caller = try await storeCall { store in try store.userID(forRefreshToken: refreshed) }
    }
    guard let caller else {
      throw UserBackendError(.sessionExpired, backendCode: "INVALID_REFRESH_TOKEN")
    }
    guard caller == session.user.id else {
      try await sessions.revoke(session)
      throw UserBackendError(
        .sessionExpired, backendCode: "INVALID_ID_TOKEN",
        message:
          "The stored session names another account than its token's (an edited or mixed-up "
          + "session file); it was cleared: sign in again.")
    }
    return session
  }

  /// Firestore's answer to a path that is not the caller's.
  static let notTheCaller = UserBackendError(
    .permissionDenied, backendCode: "PERMISSION_DENIED",
    message: "Missing or insufficient permissions.")
}
