extension SessionEngine {
  /// Runs `change` with the stored session (refreshed first when `needsRefresh` says so)
  /// while holding the store's exclusive lock, the lock every refresh
  /// (``validSession(forceRefresh:needsRefresh:exchange:)``) holds, shared with other
  /// processes for a file store.
  ///
  /// For account changes whose answer replaces the tokens or revokes the old ones (a
  /// password or email change, a link, a profile change whose answer carries tokens): no
  /// refresh of the superseded tokens runs while the change is in flight, so none can
  /// clear the session because the server just revoked its refresh token, rotate it away
  /// under the change, or be overwritten by the change's older tokens. A refresh waiting
  /// for the lock then finds the session the change stored and uses it.
  ///
  /// - Parameters:
  ///   - needsRefresh, exchange: as for ``validSession(forceRefresh:needsRefresh:exchange:)``.
  ///   - change: gets the session and `refresh`, which forces one exchange under the same
  ///     lock and returns the renewed session (for one retry after the server refused
  ///     the ID token). It must store its result (``update(replacingUnusable:_:)``) before
  ///     it returns, and must not call ``validSession(forceRefresh:needsRefresh:exchange:)``
  ///     (the lock is not re-entrant).
  /// - Returns: what `change` returns.
  /// - Throws: ``UserBackendError`` as ``validSession(forceRefresh:needsRefresh:exchange:)``
  ///   for the session, or what `change` throws.
  public func withExclusiveSession<T: Sendable>(
    needsRefresh: @escaping @Sendable (AuthSession) -> Bool,
    exchange:
      @escaping @Sendable (AuthSession) async throws(UserBackendError) -> SessionRefreshOutcome,
    _ change: (
      _ session: AuthSession, _ refresh: () async throws(UserBackendError) -> AuthSession
    ) async throws(UserBackendError) -> T
  ) async throws(UserBackendError) -> T {
    try await exclusively { () async throws(UserBackendError) -> T in
      var session = try await requireSession()
      if needsRefresh(session) {
        session = try await refresh(seen: session, needsRefresh: needsRefresh, exchange: exchange)
      }
      return try await change(session) { () async throws(UserBackendError) -> AuthSession in
        let current = try await self.requireSession()
        return try await self.refresh(
          seen: current, needsRefresh: { _ in true }, exchange: exchange)
      }
    }
  }
}
