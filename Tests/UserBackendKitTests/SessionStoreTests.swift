import Foundation
import Testing
import UserBackendKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A fresh temporary directory per test.
func makeTemporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("kit-tests-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// A signed-in state with the given user ID.
func sampleState(
  userID: String = "u1", expiresAt: Date = Date(timeIntervalSince1970: 1_800_000_000)
)
  -> PersistedAuthState
{
  PersistedAuthState(
    session: AuthSession(
      user: User(id: userID, email: "a@example.com", providers: ["password"]),
      bearerToken: "bearer-\(userID)", refreshToken: "refresh-\(userID)", expiresAt: expiresAt,
      isNewUser: false),
    pendingPhoneVerification: PendingPhoneVerification(
      verificationID: "v1", phoneNumber: "+819012345678",
      requestedAt: Date(timeIntervalSince1970: 1_700_000_000)))
}

/// Collects diagnostics lines.
final class DiagnosticLines: Sendable {
  private let lines = LockedValue<[String]>([])
  func append(_ line: String) { lines.withLock { $0.append(line) } }
  var all: [String] { lines.withLock { $0 } }
}

@Suite(.timeLimit(.minutes(2))) struct FileSessionStoreTests {
  @Test func roundTripsTheState() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = FileSessionStore(directory: directory, namespace: "fake")
    #expect(try await store.load() == .empty)
    try await store.save(sampleState())
    #expect(try await store.load() == sampleState())
    let reopened = FileSessionStore(directory: directory, namespace: "fake")
    #expect(try await reopened.load() == sampleState())
  }

  @Test func fileIsReadableOnlyByItsOwner() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = FileSessionStore(directory: directory, namespace: "fake")
    try await store.save(sampleState())
    let attributes = try FileManager.default.attributesOfItem(atPath: store.fileURL.path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
  }

  @Test func namespacesAreSeparateFiles() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let fake = FileSessionStore(directory: directory, namespace: "fake")
    let firebase = FileSessionStore(directory: directory, namespace: "firebase-demo/project")
    try await fake.save(sampleState(userID: "fake-user"))
    try await firebase.save(sampleState(userID: "firebase-user"))
    #expect(try await fake.load().session?.user.id == "fake-user")
    #expect(try await firebase.load().session?.user.id == "firebase-user")
    #expect(firebase.fileURL.lastPathComponent == "firebase-demo_project.session.json")
    try await fake.clear()
    #expect(try await fake.load() == .empty)
    #expect(try await firebase.load().session?.user.id == "firebase-user")
  }

  @Test func corruptFileReadsAsSignedOutWithOneDiagnostic() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let diagnostics = DiagnosticLines()
    let store = FileSessionStore(
      directory: directory, namespace: "fake", diagnostics: { diagnostics.append($0) })
    try Data("{\"session\": {\"user\": 42".utf8).write(to: store.fileURL)
    chmod(store.fileURL.path, 0o600)  // a file others can read is refused before parsing
    #expect(try await store.load() == .empty)
    #expect(diagnostics.all.count == 1)
    #expect(diagnostics.all.first?.contains(store.fileURL.lastPathComponent) == true)
    try await store.save(sampleState())
    #expect(try await store.load() == sampleState())
    #expect(diagnostics.all.count == 1)
  }

  @Test func failedEncodingLeavesTheOldFileIntact() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = FileSessionStore(directory: directory, namespace: "fake")
    try await store.save(sampleState())
    let before = try Data(contentsOf: store.fileURL)
    // JSON cannot encode a NaN date, so this save fails before any byte is written.
    await #expect(throws: (any Error).self) {
      try await store.save(sampleState(userID: "u2", expiresAt: Date(timeIntervalSince1970: .nan)))
    }
    #expect(try Data(contentsOf: store.fileURL) == before)
    #expect(try await store.load() == sampleState())
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(leftovers == [store.fileURL.lastPathComponent])
  }

  /// Runs for every user: root gets an immutable directory (see `makeUnwritable`).
  @Test func unwritableDirectoryLeavesTheOldFileIntact() async throws {
    let directory = try makeTemporaryDirectory()
    let store = FileSessionStore(directory: directory, namespace: "fake")
    try await store.save(sampleState())
    let before = try Data(contentsOf: store.fileURL)
    let undo = try #require(makeUnwritable(directory), "cannot make a directory unwritable")
    defer {
      undo()
      try? FileManager.default.removeItem(at: directory)
    }
    await #expect(throws: (any Error).self) { try await store.save(sampleState(userID: "u2")) }
    #expect(try Data(contentsOf: store.fileURL) == before)
    #expect(try await store.load() == sampleState())
  }

  @Test func clearingTwiceIsNotAnError() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = FileSessionStore(directory: directory, namespace: "fake")
    try await store.save(sampleState())
    try await store.clear()
    try await store.clear()
    #expect(!FileManager.default.fileExists(atPath: store.fileURL.path))
  }

  @Test func sessionDescriptionRedactsTokens() throws {
    let session = try #require(sampleState().session)
    let text = "\(String(describing: session)) \(String(reflecting: session))"
    #expect(!text.contains("bearer-u1"))
    #expect(!text.contains("refresh-u1"))
  }
}

@Suite(.timeLimit(.minutes(2))) struct InMemorySessionStoreTests {
  @Test func savesLoadsAndClears() async throws {
    let store = InMemorySessionStore()
    #expect(try await store.load() == .empty)
    try await store.save(sampleState())
    #expect(try await store.load() == sampleState())
    try await store.clear()
    #expect(try await store.load() == .empty)
  }

  @Test func startsFromTheInitialState() async throws {
    let store = InMemorySessionStore(sampleState(userID: "seed"))
    #expect(try await store.load().session?.user.id == "seed")
  }
}

/// A writer killed between creating its temporary copy and renaming it leaves the copy,
/// tokens inside, beside the session file; the next save or clear removes it.
@Suite(.timeLimit(.minutes(2))) struct FileSessionStoreTemporaryFileTests {
  /// A process ID that is not running: a child that has exited and been reaped.
  private func deadProcessID() async throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    let (ended, continuation) = AsyncStream<Void>.makeStream()
    process.terminationHandler = { _ in continuation.yield() }
    try process.run()
    for await _ in ended { break }
    return process.processIdentifier
  }

  private func leftovers(in directory: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasSuffix(".tmp") }.sorted()
  }

  @Test(arguments: ["save", "clear"])
  func aDeadWritersCopyIsRemoved(operation: String) async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = FileSessionStore(directory: directory, namespace: "fake", diagnostics: { _ in })
    let dead = try await deadProcessID()
    let stale = ".fake.session.json.\(dead).\(UUID().uuidString).tmp"
    try Data(#"{"session":"refresh-token-left-behind"}"#.utf8)
      .write(to: directory.appendingPathComponent(stale))
    // A live writer's copy (this process) and another file's copy stay.
    let live = ".fake.session.json.\(getpid()).\(UUID().uuidString).tmp"
    let other = ".firebase-p.session.json.\(dead).\(UUID().uuidString).tmp"
    try Data("x".utf8).write(to: directory.appendingPathComponent(live))
    try Data("x".utf8).write(to: directory.appendingPathComponent(other))

    if operation == "save" {
      try await store.save(.empty)
    } else {
      try await store.clear()
    }
    #expect(try leftovers(in: directory) == [other, live].sorted())
  }

  @Test func anOldCopyWithoutAProcessIDIsRemovedAndARecentOneKept() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = FileSessionStore(directory: directory, namespace: "fake", diagnostics: { _ in })
    // The naming before process IDs: `.<file>.<UUID>.tmp`.
    let old = ".fake.session.json.\(UUID().uuidString).tmp"
    let recent = ".fake.session.json.\(UUID().uuidString).tmp"
    try Data("x".utf8).write(to: directory.appendingPathComponent(old))
    try Data("x".utf8).write(to: directory.appendingPathComponent(recent))
    try FileManager.default.setAttributes(
      [.modificationDate: Date().addingTimeInterval(-3600)],
      ofItemAtPath: directory.appendingPathComponent(old).path)

    try await store.save(.empty)
    #expect(try leftovers(in: directory) == [recent])
    #expect(try await store.load() == .empty)
  }
}
