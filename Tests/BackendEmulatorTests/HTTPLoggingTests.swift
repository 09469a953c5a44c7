import BackendEmulator
import BackendHTTP
import FirebaseUserBackend
import Foundation
import NCMBUserBackend
import Testing
import UserBackendKit

/// Collects log lines from any task.
final class LineSink: Sendable {
  private let store = LockedValue<[String]>([])
  var logger: HTTPLogger { HTTPLogger { record in self.store.withLock { $0.append("\(record)") } } }
  var lines: [String] { store.withLock { $0 } }
}

/// The adapters' and the emulator's logger: one line per exchange, never a secret.
@Suite("HTTP logging through adapters and the emulator", .timeLimit(.minutes(1)))
struct HTTPLoggingTests {
  static let password = "logging-secret-pw1"
  static let apiKey = "AIzaSyLOGGINGadapterKEY0123456789abcdef"

  static func check(_ lines: [String], secrets: [String]) {
    for line in lines {
      #expect(
        line.wholeMatch(of: /(GET|POST|PUT|DELETE) https?:\/\/\S+ \d{3} \d+ms/) != nil, "\(line)")
      for secret in secrets where !secret.isEmpty { #expect(!line.contains(secret), "\(line)") }
      #expect(!line.contains("eyJ"))
    }
  }

  @Test("Firebase adapter and emulator log sign-up, token refresh and deletion")
  func firebase() async throws {
    let clientSink = LineSink()
    let serverSink = LineSink()
    let clock = ManualClock(Date())
    let emulator = BackendEmulator(
      store: try makeStore(clock: clock), projectID: "demo-log", logger: serverSink.logger)
    let backend = try FirebaseUserBackend(
      configuration: FirebaseConfiguration(
        apiKey: Self.apiKey, projectID: "demo-log", emulatorHost: "127.0.0.1:9099"),
      transport: EmulatorTransport(emulator), sessionStore: InMemorySessionStore(),
      clock: clock, logger: clientSink.logger)
    let session = try await backend.signUp(.email("log@example.com", password: Self.password))
    _ = try await backend.idToken(forceRefresh: true)
    try await backend.deleteAccount()
    let secrets = [
      Self.apiKey, Self.password, session.bearerToken, session.refreshToken ?? "",
    ]
    #expect(clientSink.lines.count == 3)
    #expect(clientSink.lines.first?.hasPrefix("POST http://127.0.0.1:9099/") == true)
    #expect(clientSink.lines.first?.contains("key=<redacted>") == true)
    #expect(serverSink.lines.count == 3)
    Self.check(clientSink.lines + serverSink.lines, secrets: secrets)
  }

  @Test("NCMB adapter logs sign-up and sign-out without the session token")
  func ncmb() async throws {
    let sink = LineSink()
    let clock = ManualClock(Date())
    let emulator = BackendEmulator(store: try makeStore(clock: clock), projectID: "demo-log")
    let backend = try NCMBUserBackend(
      configuration: NCMBConfiguration(
        applicationKey: NCMBDemoKeys.applicationKey, clientKey: NCMBDemoKeys.clientKey),
      transport: EmulatorTransport(emulator), sessionStore: InMemorySessionStore(),
      clock: clock, logger: sink.logger)
    let session = try await backend.signUp(.username("log-user", password: Self.password))
    try await backend.signOut()
    #expect(sink.lines.count == 2)
    Self.check(
      sink.lines,
      secrets: [
        Self.password, session.bearerToken, NCMBDemoKeys.applicationKey,
        NCMBDemoKeys.clientKey,
      ])
  }
}
