import BackendEmulator
import BackendHTTP
import FakeUserBackend
import FirebaseUserBackend
import Foundation
import NCMBUserBackend
import Synchronization
import Testing
import UserBackendKit

/// A session store whose calls suspend several times, like disk I/O, so that concurrent
/// callers interleave between reading and writing the session. Its locks are `inner`'s.
struct YieldingSessionStore: SessionStore {
  var inner: any SessionStore = InMemorySessionStore()
  func withExclusiveAccess<T: Sendable>(_ body: () async throws -> T) async throws -> T {
    try await inner.withExclusiveAccess(body)
  }
  func withExclusiveUpdate<T: Sendable>(_ body: () async throws -> T) async throws -> T {
    try await inner.withExclusiveUpdate(body)
  }
  func load() async throws -> PersistedAuthState {
    for _ in 0..<5 { await Task.yield() }
    return try await inner.load()
  }
  func save(_ state: PersistedAuthState) async throws {
    for _ in 0..<5 { await Task.yield() }
    try await inner.save(state)
  }
  func clear() async throws {
    for _ in 0..<5 { await Task.yield() }
    try await inner.clear()
  }
}

/// Counts the requests to the Secure Token endpoint (token refreshes).
final class RefreshCountingTransport: HTTPTransport {
  let inner: any HTTPTransport
  let refreshes = Atomic<Int>(0)

  init(inner: any HTTPTransport) { self.inner = inner }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    if request.url.path.contains("securetoken") { refreshes.add(1, ordering: .relaxed) }
    return try await inner.send(request)
  }

  var count: Int { refreshes.load(ordering: .relaxed) }
}

/// The same backend kind over the in-process emulator (firebase, ncmb) or the emulator's
/// store (fake), with a given session store.
func makeBackend(_ name: String, _ rig: EmulatorRig, _ sessions: any SessionStore) throws
  -> any UserBackend
{
  switch name {
  case "fake": FakeUserBackend(store: rig.store, sessionStore: sessions)
  case "firebase": try rig.firebase(sessions)
  default: try rig.ncmb(sessions)
  }
}

@Suite("One session engine behind every adapter", .timeLimit(.minutes(2)))
struct SessionEngineTests {
  @Test(
    "concurrent refreshes and a sign-out leave the store signed out",
    arguments: ["fake", "firebase", "ncmb"])
  func refreshRacesSignOut(backend name: String) async throws {
    let rig = try EmulatorRig(.inProcess)
    // Each round starts the sign-out a little later, sweeping it across the refreshes'
    // read-modify-write windows.
    for round in 0..<16 {
      let sessions = YieldingSessionStore()
      let backend = try makeBackend(name, rig, sessions)
      _ = try await backend.signUp(.email("race-\(round)@example.com", password: "secret1"))
      rig.clock.advance(by: 3600)
      await withTaskGroup(of: Void.self) { group in
        for index in 0..<4 {
          // NCMB has no refresh: a forced "refresh" re-reads the user and stores it.
          group.addTask { _ = try? await backend.idToken(forceRefresh: index.isMultiple(of: 2)) }
          if index == 0 {
            group.addTask {
              for _ in 0..<(round * 2) { await Task.yield() }
              do {
                try await backend.signOut()
              } catch {
                Issue.record("sign-out failed: \(error)")
              }
            }
          }
        }
      }
      #expect(try await sessions.load().session == nil, "round \(round): session resurrected")
      #expect(try await backend.currentUser() == nil)
    }
  }

  @Test(
    "refreshes in one instance and a sign-out in another, on one session file, sign out",
    arguments: ["fake", "firebase", "ncmb"])
  func refreshRacesSignOutAcrossInstances(backend name: String) async throws {
    let rig = try EmulatorRig(.inProcess)
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = FileSessionStore(directory: directory, namespace: name, diagnostics: { _ in })
    let refreshing = try makeBackend(name, rig, YieldingSessionStore(inner: file))
    let signingOut = try makeBackend(name, rig, YieldingSessionStore(inner: file))
    for round in 0..<16 {
      _ = try await refreshing.signUp(
        .email("across-\(round)@example.com", password: "secret1"))
      rig.clock.advance(by: 3600)
      await withTaskGroup(of: Void.self) { group in
        for index in 0..<3 {
          group.addTask {
            _ = try? await refreshing.idToken(forceRefresh: index.isMultiple(of: 2))
          }
        }
        group.addTask {
          for _ in 0..<(round * 2) { await Task.yield() }
          do {
            try await signingOut.signOut()
          } catch {
            Issue.record("sign-out failed: \(error)")
          }
        }
      }
      #expect(try await file.load().session == nil, "round \(round): session resurrected")
    }
  }

  @Test(
    "an unusable state directory is the same misconfigured error on every backend",
    arguments: ["fake", "firebase", "ncmb"])
  func unusableDirectory(backend name: String) async throws {
    let rig = try EmulatorRig(.inProcess)
    let store = FileSessionStore(
      directory: URL(fileURLWithPath: "/proc/nonexistent/state"), namespace: name,
      diagnostics: { _ in })
    let backend = try makeBackend(name, rig, store)
    let error = try await #require(throws: UserBackendError.self) {
      try await backend.signUp(.email("dir-\(name)@example.com", password: "secret1"))
    }
    guard case .misconfigured(let setting, let reason) = error.code else {
      Issue.record("not misconfigured: \(error)")
      return
    }
    #expect(setting == "sessionStore")
    #expect(reason.hasPrefix("cannot write the session file \(store.fileURL.path): "), "\(reason)")
    #expect(!reason.contains("Error Domain"), "\(reason)")
  }

  @Test(
    "an unreadable session file is the same misconfigured error on every backend",
    arguments: ["fake", "firebase", "ncmb"])
  func unreadableSessionFile(backend name: String) async throws {
    let rig = try EmulatorRig(.inProcess)
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = FileSessionStore(directory: directory, namespace: name, diagnostics: { _ in })
    try FileManager.default.createDirectory(at: store.fileURL, withIntermediateDirectories: false)
    let backend = try makeBackend(name, rig, store)
    let error = try await #require(throws: UserBackendError.self) {
      _ = try await backend.currentUser()
    }
    #expect(
      error.code
        == .misconfigured(
          setting: "sessionStore",
          reason: "cannot read the session file \(store.fileURL.path): it is not a regular "
            + "file (it is a directory)"))
  }

  @Test(
    "two backend instances over one session file refresh an expired session and keep it",
    arguments: ["fake", "firebase"])
  func twoInstancesOneFile(backend name: String) async throws {
    let rig = try EmulatorRig(.inProcess)
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let first = try makeBackend(name, rig, FileSessionStore(directory: directory, namespace: name))
    let second = try makeBackend(
      name, rig, FileSessionStore(directory: directory, namespace: name))
    let session = try await first.signUp(.email("two-\(name)@example.com", password: "secret1"))
    for _ in 0..<3 {
      rig.clock.advance(by: 3600)
      let tokens = try await withThrowingTaskGroup(of: String.self) { group in
        for index in 0..<8 {
          let backend = index.isMultiple(of: 2) ? first : second
          group.addTask { try await backend.idToken(forceRefresh: index % 4 == 1) }
        }
        return try await group.reduce(into: [String]()) { $0.append($1) }
      }
      #expect(tokens.count == 8)
    }
    #expect(try await first.currentUser()?.id == session.user.id)
    #expect(try await second.currentUser()?.id == session.user.id)
    #expect(try await second.idToken(forceRefresh: true).isEmpty == false)
    let lock = directory.appendingPathComponent("\(name).session.lock")
    #expect(FileManager.default.fileExists(atPath: lock.path))
  }

  @Test(
    "token expiry is on the device clock: an hour ahead, no refresh; an hour behind, on time",
    arguments: [3600.0, -3600.0])
  func clockSkew(deviceAhead skew: TimeInterval) async throws {
    let server = ManualClock(Date())
    let store = try makeStore(clock: server)
    let transport = RefreshCountingTransport(
      inner: EmulatorTransport(BackendEmulator(store: store, projectID: "demo-skew")))
    let device = ManualClock(server.now().addingTimeInterval(skew))
    let backend = try FirebaseUserBackend(
      configuration: FirebaseConfiguration(
        apiKey: "demo-api-key", projectID: "demo-skew", emulatorHost: "127.0.0.1:9099"),
      transport: transport, sessionStore: InMemorySessionStore(), clock: device)
    _ = try await backend.signUp(.email("skew@example.com", password: "secret1"))
    for _ in 0..<5 { _ = try await backend.idToken() }
    #expect(transport.count == 0)
    // Within the 5-minute margin of the hour the server gave, by either clock.
    server.advance(by: 3600 - 299)
    device.advance(by: 3600 - 299)
    _ = try await backend.idToken()
    #expect(transport.count == 1)
    for _ in 0..<4 { _ = try await backend.idToken() }
    #expect(transport.count == 1)
  }
}
