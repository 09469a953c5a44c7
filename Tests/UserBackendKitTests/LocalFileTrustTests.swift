import Foundation
import Testing

@testable import UserBackendKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The owner and shared-directory rules of the files a process keeps for its user, with
/// the user injected (another user's file needs root to make; the rule is the same), and
/// the session store refusing a shared directory or another user's file by kind: the
/// session file, both lock files, the directory.
@Suite("LocalFileTrust: another user's files, shared directories", .timeLimit(.minutes(1)))
struct LocalFileTrustTests {
  static func directory(mode: mode_t) throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("LocalFileTrustTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    #expect(chmod(url.path, mode) == 0)
    return url
  }

  @Test("a file is refused for any user but its owner, naming it and both user IDs")
  func fileOwner() throws {
    let directory = try Self.directory(mode: 0o700)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("fake.sqlite-wal")
    try Data().write(to: file)
    let me = geteuid()
    try LocalFileTrust.checkFile(file.path, user: me)
    let error = try #require(throws: LocalFileTrust.ForeignOwner.self) {
      try LocalFileTrust.checkFile(file.path, user: me &+ 1)
    }
    #expect(error.path == file.path)
    #expect(
      error.description.contains("belongs to another user (uid \(me); you are uid \(me &+ 1))"))
    #expect(error.description.contains("chown"))
    #expect(!error.description.contains("remove"))
    // A missing file passes: whoever creates it makes it theirs.
    try LocalFileTrust.checkFile(directory.appendingPathComponent("none").path, user: me &+ 1)
  }

  @Test(
    "a directory others may write in is refused, sticky bit or not; readable is fine",
    arguments: [
      (0o1777, true), (0o777, true), (0o1770, true), (0o730, true), (0o702, true),
      (0o755, false), (0o750, false), (0o700, false), (0o1755, false),
    ])
  func sharedDirectory(mode: Int, refused: Bool) throws {
    let directory = try Self.directory(mode: mode_t(mode))
    defer { try? FileManager.default.removeItem(at: directory) }
    if refused {
      let error = try #require(throws: LocalFileTrust.SharedDirectory.self) {
        try LocalFileTrust.checkDirectory(directory.path)
      }
      #expect(error.description.contains(directory.path))
      #expect(error.description.contains("0700"))
    } else {
      try LocalFileTrust.checkDirectory(directory.path)
    }
  }

  @Test("a directory of another user is refused")
  func directoryOwner() throws {
    let directory = try Self.directory(mode: 0o700)
    defer { try? FileManager.default.removeItem(at: directory) }
    #expect(throws: LocalFileTrust.ForeignOwner.self) {
      try LocalFileTrust.checkDirectory(directory.path, user: geteuid() &+ 1)
    }
  }

  @Test("the session store refuses a sticky shared directory for every operation")
  func storeInStickyDirectory() async throws {
    let directory = try Self.directory(mode: 0o1777)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = FileSessionStore(directory: directory, namespace: "fake", diagnostics: { _ in })
    await #expect(throws: LocalFileTrust.SharedDirectory.self) { try await store.load() }
    await #expect(throws: LocalFileTrust.SharedDirectory.self) {
      try await store.loadForReplacement()
    }
    await #expect(throws: LocalFileTrust.SharedDirectory.self) { try await store.save(.empty) }
    await #expect(throws: LocalFileTrust.SharedDirectory.self) { try await store.clear() }
    await #expect(throws: LocalFileTrust.SharedDirectory.self) {
      try await store.withExclusiveAccess {}
    }
    await #expect(throws: LocalFileTrust.SharedDirectory.self) {
      try await store.withExclusiveUpdate {}
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
  }

  @Test(
    "a lock file of another user is refused and named, not the session file",
    .enabled(if: geteuid() == 0, "giving a file to another user needs root"))
  func foreignLockFile() async throws {
    let directory = try Self.directory(mode: 0o700)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = FileSessionStore(directory: directory, namespace: "fake", diagnostics: { _ in })
    for lock in [store.lockURL, store.updateLockURL] {
      try Data().write(to: lock)
      #expect(chown(lock.path, 65_534, gid_t.max) == 0)
    }
    let error = await #expect(throws: LocalFileTrust.ForeignOwner.self) {
      try await store.withExclusiveAccess {}
    }
    #expect(error?.path == store.lockURL.path)
    // The session engine's error of a write names the update lock file.
    let engine = SessionEngine(store: store)
    let failure = await #expect(throws: UserBackendError.self) {
      try await engine.update { _ in true }
    }
    guard case .misconfigured(_, let reason)? = failure?.code else {
      Issue.record("not misconfigured: \(String(describing: failure))")
      return
    }
    #expect(reason.hasPrefix("cannot write the session file \(store.fileURL.path): "))
    #expect(
      reason.contains("\(store.updateLockURL.path) belongs to another user (uid 65534"),
      "\(reason)")
  }
}
