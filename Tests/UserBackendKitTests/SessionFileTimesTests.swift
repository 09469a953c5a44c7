import Foundation
import Testing
import UserBackendKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Attack round 7: a session file edited by hand with times far outside 0001…9999 was read
/// as is, and printed as `506713-02-07T00:00:00Z` (or, before year 1, as the wrong day).
/// The store keeps times to the range servers send: profile times outside it are dropped,
/// an expiry outside it counts as expired (refreshed on next use); the session stays.
@Suite("Session file: times outside 0001…9999", .timeLimit(.minutes(1)))
struct SessionFileTimesTests {
  /// The stored state after replacing the user's and session's times with `times`
  /// (seconds since 1970, written into the file's JSON).
  func loaded(createdAt: Double, lastSignInAt: Double, expiresAt: Double) async throws
    -> AuthSession?
  {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = FileSessionStore(directory: directory, namespace: "fake", diagnostics: { _ in })
    let user = User(
      id: "u1", email: "a@example.com",
      createdAt: Date(timeIntervalSince1970: 1_700_000_000),
      lastSignInAt: Date(timeIntervalSince1970: 1_700_000_100))
    try await store.save(
      PersistedAuthState(
        session: AuthSession(
          user: user, bearerToken: "bearer-1", refreshToken: "refresh-1",
          expiresAt: Date(timeIntervalSince1970: 1_800_000_000), isNewUser: false)))
    var json = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: store.fileURL)) as? [String: Any])
    var session = try #require(json["session"] as? [String: Any])
    var stored = try #require(session["user"] as? [String: Any])
    stored["createdAt"] = createdAt
    stored["lastSignInAt"] = lastSignInAt
    session["user"] = stored
    session["expiresAt"] = expiresAt
    json["session"] = session
    try JSONSerialization.data(withJSONObject: json).write(to: store.fileURL)
    chmod(store.fileURL.path, 0o600)
    return try await store.load().session
  }

  @Test(
    "times outside the range are dropped or count as expired; the session stays",
    arguments: [1e300, -1e300, 9e18, -62_135_596_801, 253_402_300_800])
  func outside(seconds: Double) async throws {
    let session = try #require(
      try await loaded(createdAt: seconds, lastSignInAt: seconds, expiresAt: seconds))
    #expect(session.user.id == "u1")
    #expect(session.bearerToken == "bearer-1")
    #expect(session.user.createdAt == nil)
    #expect(session.user.lastSignInAt == nil)
    let expiry = try #require(session.expiresAt)
    #expect(session.isExpired(at: Date()), "\(expiry)")
  }

  @Test("times inside the range, its ends included, are kept")
  func inside() async throws {
    let first = -62_135_596_800.0
    let last = 253_402_300_799.0
    let session = try #require(
      try await loaded(createdAt: first, lastSignInAt: last, expiresAt: 1_800_000_000))
    #expect(session.user.createdAt == Date(timeIntervalSince1970: first))
    #expect(session.user.lastSignInAt == Date(timeIntervalSince1970: last))
    #expect(session.expiresAt == Date(timeIntervalSince1970: 1_800_000_000))
  }
}
