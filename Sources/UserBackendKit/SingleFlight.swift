/// Runs at most one operation per key at a time; concurrent callers with the same key
/// await the one in flight and share its result or error.
///
/// Used for token refresh: N concurrent callers with an expired token cause exactly one
/// refresh request, keyed by the refresh token.
package actor SingleFlight<Key: Hashable & Sendable, Value: Sendable> {
  private var inFlight: [Key: Task<Value, any Error>] = [:]

  /// An empty group.
  package init() {}

  /// Runs `operation` for `key`, or joins the run already in flight for it.
  ///
  /// The shared operation is not cancelled when one caller is cancelled.
  /// - Throws: the operation's error, to every caller that joined it.
  package func run(
    key: Key, _ operation: @escaping @Sendable () async throws -> Value
  ) async throws -> Value {
    if let task = inFlight[key] { return try await task.value }
    let task = Task { try await operation() }
    inFlight[key] = task
    defer { inFlight[key] = nil }
    return try await task.value
  }
}
