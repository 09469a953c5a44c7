import Foundation
import Testing
import UserBackendKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The session store never writes a state it would refuse to read, and a sign-in or
/// sign-out replaces a session file that cannot be used (too large, corrupt, not private)
/// instead of failing; a symbolic link is refused, never followed.
@Suite("Session file: never unreadable, always recoverable", .timeLimit(.minutes(1)))
struct SessionFileRecoveryTests {
  /// A store in a fresh directory, collecting diagnostics.
  static func store() throws -> (FileSessionStore, DiagnosticLines, URL) {
    let directory = try makeTemporaryDirectory()
    let lines = DiagnosticLines()
    let store = FileSessionStore(
      directory: directory, namespace: "fake", diagnostics: { lines.append($0) })
    return (store, lines, directory)
  }

  /// A session for `user` with ordinary tokens.
  static func session(_ user: User, bearer: String = "bearer-2", refresh: String = "refresh-2")
    -> AuthSession
  {
    AuthSession(
      user: user, bearerToken: bearer, refreshToken: refresh,
      expiresAt: Date(timeIntervalSince1970: 1_800_000_000), isNewUser: false)
  }

  static func expectMalformed(_ error: UserBackendError?, naming field: String) {
    guard let error, case .malformedResponse(let reason) = error.code else {
      Issue.record("expected malformedResponse, got \(String(describing: error))")
      return
    }
    #expect(reason.contains(field), "\(reason)")
  }

  @Test("saving a state larger than the read limit fails and keeps the stored file")
  func oversizedSaveKeepsTheOldFile() async throws {
    let (store, _, directory) = try Self.store()
    defer { try? FileManager.default.removeItem(at: directory) }
    try await store.save(sampleState())
    let before = try Data(contentsOf: store.fileURL)
    // Every field within its own limit, the whole over 1 MiB: only the store can see it.
    let providers = (0..<80_000).map { "provider-\($0)" }
    let user = User(id: "u2", providers: providers)
    let engine = SessionEngine(store: store)
    let error = await #expect(throws: UserBackendError.self) {
      try await engine.signIn(Self.session(user))
    }
    Self.expectMalformed(error, naming: "bytes")
    #expect(try Data(contentsOf: store.fileURL) == before)
    #expect(try await store.load() == sampleState())
  }

  /// A user whose one server-sent identifier is one over its limit. (Profile fields over
  /// theirs are dropped by the adapters, not refused: `overLimitProfileIsNotRefused`.)
  static let overLimit: [(String, User)] = [
    ("email", User(id: "u2", email: String(repeating: "e", count: 250) + "@x.io")),
    ("username", User(id: "u2", username: String(repeating: "u", count: 256))),
    ("phoneNumber", User(id: "u2", phoneNumber: "+" + String(repeating: "1", count: 16))),
    ("user ID", User(id: String(repeating: "i", count: 129))),
  ]

  @Test(
    "a server value over its limit is malformedResponse naming it; nothing is stored",
    arguments: 0..<4)
  func overLimitValues(_ index: Int) async throws {
    let (field, user) = Self.overLimit[index]
    let store = InMemorySessionStore(sampleState())
    let engine = SessionEngine(store: store)
    let error = await #expect(throws: UserBackendError.self) {
      try await engine.signIn(Self.session(user))
    }
    Self.expectMalformed(error, naming: field)
    #expect(try await store.load() == sampleState())
    // Also through a plain update (a reload storing the user it fetched).
    let updated = await #expect(throws: UserBackendError.self) {
      try await engine.update { state in
        state.session?.user = user
        return true
      }
    }
    Self.expectMalformed(updated, naming: field)
    #expect(try await store.load() == sampleState())
  }

  /// A stored session whose profile is over the limits (an older session file) must not
  /// make every later write fail: the store check refuses identifiers and tokens only.
  @Test("a display name or photo URL over its limit is not refused by the store check")
  func overLimitProfileIsNotRefused() async throws {
    let user = User(
      id: "u2", displayName: String(repeating: "n", count: 257),
      photoURL: URL(string: "https://x.io/" + String(repeating: "p", count: 2040)))
    let store = InMemorySessionStore(sampleState())
    let engine = SessionEngine(store: store)
    try await engine.signIn(Self.session(user))
    #expect(try await store.load().session?.user == user)
    #expect(AnswerLimits.keepingUsableProfile(user) == User(id: "u2"))
  }

  @Test("a token over 16 KiB is malformedResponse naming it; at 16 KiB it is kept")
  func overLimitTokens() async throws {
    let long = String(repeating: "t", count: AnswerLimits.maximumTokenBytes + 1)
    let exact = String(repeating: "t", count: AnswerLimits.maximumTokenBytes)
    let store = InMemorySessionStore(sampleState())
    let engine = SessionEngine(store: store)
    let user = User(id: "u2")
    for (session, field) in [
      (Self.session(user, bearer: long), "bearer token"),
      (Self.session(user, refresh: long), "refresh token"),
    ] {
      let error = await #expect(throws: UserBackendError.self) {
        try await engine.signIn(session)
      }
      Self.expectMalformed(error, naming: field)
      #expect(try await store.load() == sampleState())
    }
    var pending = sampleState()
    pending.pendingPhoneVerification?.verificationID = long
    let error = await #expect(throws: UserBackendError.self) {
      try await engine.update { state in
        state = pending
        return true
      }
    }
    Self.expectMalformed(error, naming: "verification ID")
    try await engine.signIn(Self.session(user, bearer: exact, refresh: exact))
    #expect(try await store.load().session?.bearerToken == exact)
  }

  /// Fills the session file with `bytes` (mode 0600).
  static func write(_ bytes: Data, to store: FileSessionStore) throws {
    try bytes.write(to: store.fileURL)
    chmod(store.fileURL.path, 0o600)
  }

  static let secretMarker = "SECRET-REFRESH-TOKEN-MARKER"

  /// Files a sign-out removes and a sign-in replaces: too large, corrupt, mode 0644.
  enum Unusable: String, CaseIterable, CustomTestStringConvertible {
    case tooLarge, corrupt, groupReadable
    var testDescription: String { rawValue }

    func make(_ store: FileSessionStore) throws {
      switch self {
      case .tooLarge:
        let padding = String(repeating: "x", count: 1 << 20)
        try SessionFileRecoveryTests.write(
          Data(#"{"session":{"refreshToken":"\#(secretMarker)\#(padding)"}}"#.utf8), to: store)
      case .corrupt:
        try SessionFileRecoveryTests.write(Data("{\(secretMarker)".utf8), to: store)
      case .groupReadable:
        try SessionFileRecoveryTests.write(
          try JSONEncoder().encode(sampleState(userID: secretMarker)), to: store)
        chmod(store.fileURL.path, 0o644)
      }
    }
  }

  @Test(
    "sign-out removes an unusable session file, saying so without its content",
    arguments: Unusable.allCases)
  func signOutRemoves(_ kind: Unusable) async throws {
    let (store, lines, directory) = try Self.store()
    defer { try? FileManager.default.removeItem(at: directory) }
    try kind.make(store)
    try await SessionEngine(store: store).signOut()
    #expect(!FileManager.default.fileExists(atPath: store.fileURL.path))
    let warning = lines.all.joined(separator: "\n")
    #expect(warning.contains(store.fileURL.path))
    #expect(!warning.contains(Self.secretMarker))
  }

  @Test(
    "sign-in replaces an unusable session file with a private one",
    arguments: Unusable.allCases)
  func signInReplaces(_ kind: Unusable) async throws {
    let (store, _, directory) = try Self.store()
    defer { try? FileManager.default.removeItem(at: directory) }
    try kind.make(store)
    let session = Self.session(User(id: "u2"))
    try await SessionEngine(store: store).signIn(session)
    #expect(try await store.load().session == session)
    let attributes = try FileManager.default.attributesOfItem(atPath: store.fileURL.path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
  }

  @Test(
    "reading an oversized or group-readable file names it and says sign-out removes it",
    arguments: [Unusable.tooLarge, .groupReadable])
  func readErrorNamesTheFile(_ kind: Unusable) async throws {
    let (store, _, directory) = try Self.store()
    defer { try? FileManager.default.removeItem(at: directory) }
    try kind.make(store)
    let error = await #expect(throws: UserBackendError.self) {
      try await SessionEngine(store: store).session()
    }
    guard let error, case .misconfigured(_, let reason) = error.code else {
      Issue.record("expected misconfigured, got \(String(describing: error))")
      return
    }
    #expect(reason.contains(store.fileURL.path))
    #expect(reason.contains("signing out removes it"))
    #expect(!reason.contains(Self.secretMarker))
    if kind == .groupReadable { #expect(reason.contains("0644")) }
  }

  @Test("a symbolic link at a lock path is refused, not followed: no file is made elsewhere")
  func lockLinkIsRefused() async throws {
    for which in ["lock", "update"] {
      let (store, _, directory) = try Self.store()
      defer { try? FileManager.default.removeItem(at: directory) }
      let victim = directory.appendingPathComponent("victim-\(which)")
      let lock = which == "lock" ? store.lockURL : store.updateLockURL
      try FileManager.default.createDirectory(
        at: lock.deletingLastPathComponent(), withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(
        atPath: lock.path, withDestinationPath: victim.path)
      let engine = SessionEngine(store: store)
      await #expect(throws: (any Error).self) {
        if which == "lock" {
          try await store.withExclusiveAccess { _ = try await store.load() }
        } else {
          try await engine.signIn(Self.session(User(id: "u2")))
        }
      }
      #expect(!FileManager.default.fileExists(atPath: victim.path), "\(which)")
    }
  }

  @Test("a session file that is a symbolic link is refused; sign-out touches neither file")
  func symbolicLinkIsRefused() async throws {
    let (store, _, directory) = try Self.store()
    defer { try? FileManager.default.removeItem(at: directory) }
    let target = directory.appendingPathComponent("elsewhere.json")
    try JSONEncoder.init().encode(sampleState()).write(to: target)
    chmod(target.path, 0o600)
    try FileManager.default.createSymbolicLink(
      atPath: store.fileURL.path, withDestinationPath: target.path)
    let engine = SessionEngine(store: store)
    for attempt in 0..<3 {
      let error = await #expect(throws: UserBackendError.self) {
        switch attempt {
        case 0: _ = try await engine.session()
        case 1: try await engine.signOut()
        default: try await engine.signIn(Self.session(User(id: "u2")))
        }
      }
      guard let error, case .misconfigured(_, let reason) = error.code else {
        Issue.record("expected misconfigured, got \(String(describing: error))")
        continue
      }
      #expect(reason.contains(store.fileURL.path))
      #expect(reason.contains("symbolic link"))
    }
    let link = try FileManager.default.destinationOfSymbolicLink(atPath: store.fileURL.path)
    #expect(link == target.path)
    #expect(FileManager.default.fileExists(atPath: target.path))
  }
}
