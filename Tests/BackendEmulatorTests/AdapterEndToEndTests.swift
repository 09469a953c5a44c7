import AccountDatabase
import BackendEmulator
import BackendHTTP
import FakeUserBackend
import FirebaseUserBackend
import Foundation
import NCMBUserBackend
import Testing
import UserBackendKit

/// How the adapter reaches the emulator.
enum EmulatorPath: String, CaseIterable, Sendable, CustomTestStringConvertible {
  /// In process, through ``EmulatorTransport``.
  case inProcess
  /// Over loopback HTTP, through ``URLSessionTransport`` and ``EmulatorServer``.
  case loopback

  var testDescription: String { rawValue }
}

/// An emulator reachable in one of the two ways, with a shared manual clock.
struct EmulatorRig {
  let clock = ManualClock(Date())
  let store: UserStore
  let server: EmulatorServer?
  let transport: any HTTPTransport
  /// `host:port` for Firebase, base URL for NCMB.
  let host: String

  init(_ path: EmulatorPath) throws {
    store = try makeStore(clock: clock)
    let emulator = BackendEmulator(store: store, projectID: "demo-e2e")
    switch path {
    case .inProcess:
      server = nil
      transport = EmulatorTransport(emulator)
      host = "127.0.0.1:9099"
    case .loopback:
      let server = EmulatorServer(emulator: emulator, port: 0)
      host = "127.0.0.1:\(try server.start())"
      self.server = server
      transport = URLSessionTransport(defaultTimeout: 30)
    }
  }

  func firebase(_ sessionStore: any SessionStore = InMemorySessionStore()) throws
    -> FirebaseUserBackend
  {
    try FirebaseUserBackend(
      configuration: FirebaseConfiguration(
        apiKey: "demo-api-key", projectID: "demo-e2e", emulatorHost: host),
      transport: transport, sessionStore: sessionStore, clock: clock)
  }

  /// NCMB over the canonical host in process (signed for `mbaas.api.nifcloud.com`), over
  /// `http://127.0.0.1:PORT` on loopback (signed for `127.0.0.1`).
  func ncmb(_ sessionStore: any SessionStore = InMemorySessionStore()) throws -> NCMBUserBackend {
    let baseURL =
      server == nil ? NCMBConfiguration.defaultBaseURL : URL(string: "http://\(host)")!
    return try NCMBUserBackend(
      configuration: NCMBConfiguration(
        applicationKey: NCMBDemoKeys.applicationKey, clientKey: NCMBDemoKeys.clientKey,
        baseURL: baseURL, validatesResponseSignature: true),
      transport: transport, sessionStore: sessionStore, clock: clock)
  }

  func stop() async { if let server { await stopOffPool(server) } }
}

/// Sign-up, sign-in on a second backend instance, whoami, token, sign-out, and the two
/// portable errors, against any adapter.
func runCoreScenario(
  credential: PasswordCredential, makeBackend: () throws -> any UserBackend
) async throws {
  let first = try makeBackend()
  let created = try await first.signUp(credential)
  #expect(created.isNewUser)
  #expect(try await first.currentUser()?.id == created.user.id)

  let second = try makeBackend()
  #expect(try await second.currentUser() == nil)
  let signedIn = try await second.signIn(credential)
  #expect(signedIn.user.id == created.user.id)
  #expect(try await second.currentUser()?.id == created.user.id)
  #expect(try await second.idToken(forceRefresh: true).isEmpty == false)
  try await second.signOut()
  #expect(try await second.currentUser() == nil)
  try await second.signOut()  // twice is not an error

  let wrong = PasswordCredential(credential.identifier, password: "wrong-password")
  await #expect(throws: UserBackendError.self) {
    do { _ = try await second.signIn(wrong) } catch let error as UserBackendError {
      #expect(error.code == .invalidCredentials)
      throw error
    }
  }
  await #expect(throws: UserBackendError.self) {
    do { _ = try await makeBackend().signUp(credential) } catch let error as UserBackendError {
      #expect(error.code == .accountAlreadyExists)
      throw error
    }
  }
}

@Suite("Adapters against the emulator", .timeLimit(.minutes(2)))
struct AdapterEndToEndTests {
  @Test(
    "FirebaseUserBackend: sign-up, sign-in, whoami, token, sign-out",
    arguments: EmulatorPath.allCases)
  func firebaseCore(path: EmulatorPath) async throws {
    let rig = try EmulatorRig(path)
    do {
      try await runCoreScenario(
        credential: .email("e2e@example.com", password: "secret1"),
        makeBackend: { try rig.firebase() })
      #expect(try rig.store.userCount() == 1)
    } catch {
      await rig.stop()
      throw error
    }
    await rig.stop()
  }

  @Test(
    "NCMBUserBackend: sign-up, sign-in, whoami, token, sign-out", arguments: EmulatorPath.allCases)
  func ncmbCore(path: EmulatorPath) async throws {
    let rig = try EmulatorRig(path)
    do {
      try await runCoreScenario(
        credential: .username("e2e-user", password: "secret1"),
        makeBackend: { try rig.ncmb() })
      #expect(try rig.store.userCount() == 1)
    } catch {
      await rig.stop()
      throw error
    }
    await rig.stop()
  }

  @Test(
    "FirebaseUserBackend: reload, anonymous, phone and Apple sign-in",
    arguments: EmulatorPath.allCases)
  func firebaseCapabilities(path: EmulatorPath) async throws {
    let rig = try EmulatorRig(path)
    do {
      let backend = try rig.firebase()
      _ = try await backend.signUp(.email("caps@example.com", password: "secret1"))
      #expect(try await backend.reload().email == "caps@example.com")
      rig.clock.advance(by: 3700)  // the ID token expires: the next call refreshes it
      #expect(try await backend.idToken(forceRefresh: false).isEmpty == false)
      try await backend.signOut()

      let anonymous = try await backend.signInAnonymously()
      #expect(anonymous.user.isAnonymous)
      try await backend.signOut()

      let verificationID = try await backend.startPhoneVerification(phoneNumber: "+15555550123")
      let code = try #require(
        try rig.store.pendingPhoneVerifications().first { $0.verificationID == verificationID }
      ).code
      let phone = try await backend.signIn(verificationID: verificationID, code: code)
      #expect(phone.user.phoneNumber == "+15555550123")
      try await backend.signOut()

      let rawNonce = Nonce.random()
      let idToken = testIDPToken(sub: "apple-e2e", nonce: Crypto.sha256Hex(rawNonce))
      let apple = try await backend.signIn(
        with: IdentityProviderCredential(
          provider: "apple.com", idToken: idToken, rawNonce: rawNonce))
      #expect(apple.user.providers.contains("apple.com"))
      try await backend.deleteAccount()
      #expect(try rig.store.user(provider: "apple.com", subject: "apple-e2e") == nil)
    } catch {
      await rig.stop()
      throw error
    }
    await rig.stop()
  }

  @Test(
    "NCMBUserBackend: anonymous and Apple sign-in, reload, delete",
    arguments: EmulatorPath.allCases)
  func ncmbCapabilities(path: EmulatorPath) async throws {
    let rig = try EmulatorRig(path)
    do {
      let backend = try rig.ncmb()
      let anonymous = try await backend.signInAnonymously()
      #expect(anonymous.user.isAnonymous)
      #expect(try await backend.reload().id == anonymous.user.id)
      try await backend.signOut()

      let idToken = testIDPToken(sub: "apple-ncmb", nonce: nil)
      let apple = try await backend.signIn(
        with: IdentityProviderCredential(
          provider: "apple.com", idToken: idToken, rawNonce: nil,
          authorizationCode: "c1.0.apple-authorization-code"))
      #expect(apple.isNewUser)
      try await backend.deleteAccount()
      #expect(try await backend.currentUser() == nil)
      #expect(try rig.store.user(provider: "apple.com", subject: "apple-ncmb") == nil)
      #expect(try rig.store.userCount() == 1)
    } catch {
      await rig.stop()
      throw error
    }
    await rig.stop()
  }
}
