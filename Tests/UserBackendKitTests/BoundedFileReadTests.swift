import Foundation
import Testing
import UserBackendKit

/// Issue 16 item 6: files someone else controls are read up to a limit.
@Suite("BoundedFileRead", .timeLimit(.minutes(1)))
struct BoundedFileReadTests {
  @Test("/dev/zero is refused before any byte is read: it is not a regular file")
  func endless() throws {
    let error = try #require(throws: BoundedFileRead.NotRegularFile.self) {
      _ = try BoundedFileRead.data(
        contentsOf: URL(fileURLWithPath: "/dev/zero"), limit: BoundedFileRead.largeFileLimit)
    }
    #expect(error.description == "/dev/zero is not a regular file (it is a character device)")
  }

  @Test("a file of exactly the limit is read; one byte more is refused")
  func boundary() throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("BoundedFileRead-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: file) }
    try Data(repeating: 7, count: 100).write(to: file)
    #expect(try BoundedFileRead.data(contentsOf: file, limit: 100).count == 100)
    #expect(throws: BoundedFileRead.TooLarge.self) {
      _ = try BoundedFileRead.data(contentsOf: file, limit: 99)
    }
    #expect(throws: (any Error).self) {
      _ = try BoundedFileRead.data(
        contentsOf: file.appendingPathExtension("missing"), limit: 100)
    }
  }
}
