import Foundation
import Testing
import UserBackendKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file the user names that is not a regular file (a FIFO, a device, a directory, a
/// symbolic link to one) is refused at once with a reason that says so: opening a FIFO
/// with no writer would block the thread forever, and a device never ends.
@Suite("Files the user names must be regular files", .timeLimit(.minutes(1)))
struct NonRegularFileTests {
  /// A fresh directory with a FIFO `fifo`, a symbolic link `zero` to /dev/zero and a
  /// directory `dir`.
  static func fixture() throws -> URL {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("NonRegularFile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    for name in ["fifo", "fifo.session.json"] {
      #expect(mkfifo(directory.appendingPathComponent(name).path, 0o600) == 0)
    }
    for name in ["zero", "zero.session.json"] {
      try FileManager.default.createSymbolicLink(
        atPath: directory.appendingPathComponent(name).path, withDestinationPath: "/dev/zero")
    }
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("dir"), withIntermediateDirectories: true)
    return directory
  }

  @Test(
    "BoundedFileRead refuses a FIFO, a device, a link to a device and a directory",
    arguments: ["fifo", "zero", "dir", "/dev/zero", "/dev/null"])
  func boundedRead(_ name: String) throws {
    let directory = try Self.fixture()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url =
      name.hasPrefix("/") ? URL(fileURLWithPath: name) : directory.appendingPathComponent(name)
    let error = try #require(throws: (any Error).self) {
      _ = try BoundedFileRead.data(contentsOf: url, limit: 100)
    }
    #expect("\(error)".contains("is not a regular file"), "\(error)")
    #expect("\(error)".contains(url.path), "\(error)")
  }

  @Test("a session file that is a FIFO or a link to /dev/zero says it is not a regular file")
  func sessionFile() async throws {
    let directory = try Self.fixture()
    defer { try? FileManager.default.removeItem(at: directory) }
    for name in ["fifo", "zero"] {
      let store = FileSessionStore(directory: directory, namespace: name)
      do {
        _ = try await store.load()
        Issue.record("\(name) was read")
      } catch {
        #expect("\(error)".contains("is not a regular file"), "\(error)")
        #expect(!"\(error)".contains("ermission denied"), "\(error)")
      }
    }
  }

  @Test("a missing session file is still signed out")
  func missingSessionFile() async throws {
    let directory = try Self.fixture()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = FileSessionStore(directory: directory, namespace: "absent")
    #expect(try await store.load() == .empty)
  }
}
