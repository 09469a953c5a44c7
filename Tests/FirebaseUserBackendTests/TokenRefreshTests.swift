import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

@Suite("Firebase token refresh", .timeLimit(.minutes(2)))
struct TokenRefreshTests {
  @Test("100 concurrent idToken() calls on an expired session send exactly one token request")
  func singleFlight() async throws {
    let clock = ManualClock(Fixture.start)
    let fresh = Fixture.idToken(exp: Fixture.start.addingTimeInterval(3600), serial: 2)
    let server = StubTransport { request in
      // Stay in flight for a while so that the callers pile up behind the first one.
      for _ in 0..<200 { await Task.yield() }
      return StubTransport.json(200, Fixture.tokenBody(idToken: fresh))
    }
    let store = InMemorySessionStore(
      PersistedAuthState(session: Fixture.session(expiresAt: Fixture.start.addingTimeInterval(-60)))
    )
    let backend = try Fixture.backend(server, store: store, clock: clock)

    let tokens = try await withThrowingTaskGroup(of: String.self) { group in
      for _ in 0..<100 { group.addTask { try await backend.idToken() } }
      return try await group.reduce(into: [String]()) { $0.append($1) }
    }

    #expect(tokens.count == 100)
    #expect(Set(tokens) == [fresh])
    #expect(server.count == 1)
    #expect(server.requests.first?.operation == "token")
    #expect(try await store.load().session?.bearerToken == fresh)
  }

  @Test("the ID token is refreshed only within 5 minutes of expiry")
  func refreshMargin() async throws {
    let clock = ManualClock(Fixture.start)
    let expiry = Fixture.start.addingTimeInterval(3600)
    let fresh = Fixture.idToken(exp: expiry.addingTimeInterval(3600), serial: 2)
    let server = StubTransport(json: Fixture.tokenBody(idToken: fresh))
    let store = InMemorySessionStore(
      PersistedAuthState(session: Fixture.session(expiresAt: expiry)))
    let backend = try Fixture.backend(server, store: store, clock: clock)
    let original = try #require(try await store.load().session?.bearerToken)

    clock.advance(by: 3600 - 301)  // 301 s left: still served from the store
    #expect(try await backend.idToken() == original)
    #expect(server.count == 0)

    clock.advance(by: 2)  // 299 s left: refreshed
    #expect(try await backend.idToken() == fresh)
    #expect(server.count == 1)
    let stored = try #require(try await store.load().session)
    #expect(stored.bearerToken == fresh)
    // expiresIn (3600 s) from the device clock at receipt, not the JWT's exp.
    #expect(stored.expiresAt == clock.now().addingTimeInterval(3600))
    #expect(stored.user.id == "uid-1")

    #expect(try await backend.idToken() == fresh)  // now fresh: no second request
    #expect(server.count == 1)
  }

  @Test("forceRefresh refreshes a fresh token and stores a rotated refresh token")
  func forced() async throws {
    let clock = ManualClock(Fixture.start)
    let fresh = Fixture.idToken(exp: Fixture.start.addingTimeInterval(3600), serial: 2)
    let server = StubTransport(
      json: Fixture.tokenBody(idToken: fresh, refreshToken: "AMf-rotated-refresh"))
    let store = Fixture.signedInStore(clock: clock)
    let backend = try Fixture.backend(server, store: store, clock: clock)
    let events = EventRecorder(backend.authStateChanges)
    _ = await events.events(atLeast: 1)

    #expect(try await backend.idToken(forceRefresh: true) == fresh)
    #expect(server.count == 1)
    #expect(try await store.load().session?.refreshToken == "AMf-rotated-refresh")
    #expect(await events.events(atLeast: 2) == [.initialState, .tokenRefreshed])
  }

  @Test(
    "a definitive rejection of the refresh token clears the session",
    arguments: [
      "USER_NOT_FOUND", "USER_DISABLED", "TOKEN_EXPIRED", "INVALID_REFRESH_TOKEN",
      "INVALID_ID_TOKEN",
    ])
  func clearsOnRejection(code: String) async throws {
    let clock = ManualClock(Fixture.start)
    let server = StubTransport(status: 400, json: Fixture.errorBody(code))
    let pending = PendingPhoneVerification(
      verificationID: "SESSION-INFO-9", phoneNumber: "+15555550100", requestedAt: Fixture.start)
    let store = InMemorySessionStore(
      PersistedAuthState(
        session: Fixture.session(expiresAt: Fixture.start.addingTimeInterval(-1)),
        pendingPhoneVerification: pending))
    let backend = try Fixture.backend(server, store: store, clock: clock)
    let events = EventRecorder(backend.authStateChanges)
    _ = await events.events(atLeast: 1)

    let error = await #expect(throws: UserBackendError.self) {
      _ = try await backend.idToken()
    }
    #expect(error?.code == .sessionExpired)
    #expect(error?.backendCode?.rawValue == code)
    let state = try await store.load()
    #expect(state.session == nil)
    #expect(state.pendingPhoneVerification == pending)
    #expect(try await backend.currentUser() == nil)
    #expect(await events.events(atLeast: 2) == [.initialState, .sessionRevoked])
    await #expect(throws: UserBackendError(.notSignedIn)) { _ = try await backend.idToken() }
  }

  @Test(
    "network errors, cancellation and server errors keep the session",
    arguments: [
      "timeout", "cancelled", "503", "INVALID_GRANT_TYPE",
    ])
  func keepsOnTransientFailure(kind: String) async throws {
    let clock = ManualClock(Fixture.start)
    let server = StubTransport { _ in
      switch kind {
      case "timeout": throw HTTPTransportError.timedOut
      case "cancelled": throw CancellationError()
      case "503": return HTTPResponse(status: 503, body: Data("Service Unavailable".utf8))
      default: return StubTransport.json(400, Fixture.errorBody(kind))
      }
    }
    let session = Fixture.session(expiresAt: Fixture.start.addingTimeInterval(-1))
    let store = InMemorySessionStore(PersistedAuthState(session: session))
    let backend = try Fixture.backend(server, store: store, clock: clock)

    let error = await #expect(throws: UserBackendError.self) {
      _ = try await backend.idToken()
    }
    #expect(error?.code != .sessionExpired)
    if kind == "timeout" || kind == "cancelled" {
      #expect(error?.code.name == "network")
    }
    #expect(try await store.load().session == session)
    #expect(try await backend.currentUser() == session.user)
  }

  @Test("a caller cancelled while waiting for the shared refresh does not clear the session")
  func cancelledCaller() async throws {
    let clock = ManualClock(Fixture.start)
    let fresh = Fixture.idToken(exp: Fixture.start.addingTimeInterval(3600), serial: 2)
    let server = StubTransport { _ in
      for _ in 0..<200 { await Task.yield() }
      return StubTransport.json(200, Fixture.tokenBody(idToken: fresh))
    }
    let store = InMemorySessionStore(
      PersistedAuthState(session: Fixture.session(expiresAt: Fixture.start.addingTimeInterval(-1))))
    let backend = try Fixture.backend(server, store: store, clock: clock)

    let task = Task { try await backend.idToken() }
    task.cancel()
    _ = try? await task.value
    // The shared refresh is not cancelled with one caller: it completes and is stored.
    #expect(server.count == 1)
    #expect(try await store.load().session?.bearerToken == fresh)
    #expect(try await backend.idToken() == fresh)
    #expect(server.count == 1)
  }

  @Test("a refresh that finishes after sign-out does not bring the session back")
  func noResurrection() async throws {
    let clock = ManualClock(Fixture.start)
    let fresh = Fixture.idToken(exp: Fixture.start.addingTimeInterval(3600), serial: 2)
    let release = LockedValue(false)
    let server = StubTransport { _ in
      while !release.withLock({ $0 }) { await Task.yield() }
      return StubTransport.json(200, Fixture.tokenBody(idToken: fresh))
    }
    let store = InMemorySessionStore(
      PersistedAuthState(session: Fixture.session(expiresAt: Fixture.start.addingTimeInterval(-1))))
    let backend = try Fixture.backend(server, store: store, clock: clock)

    let refresh = Task { try await backend.idToken() }
    while server.count == 0 { await Task.yield() }
    try await backend.signOut()
    release.withLock { $0 = true }
    await #expect(throws: UserBackendError(.notSignedIn)) { _ = try await refresh.value }
    #expect(try await store.load().session == nil)
  }
}
