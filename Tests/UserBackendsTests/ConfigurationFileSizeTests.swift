import Foundation
import Testing
import UserBackendKit
import UserBackends

/// Issue 16 item 6: the configuration file is read up to a limit, with an error naming it.
@Suite("Configuration file size is bounded", .timeLimit(.minutes(1)))
struct ConfigurationFileSizeTests {
  @Test("/dev/zero or an oversized file as the config file is an unreadable file")
  func oversized() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("ConfigurationFileSize-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let big = directory.appendingPathComponent("big.json")
    try Data(
      (#"{"backend": "fake"}"# + String(repeating: " ", count: BoundedFileRead.smallFileLimit))
        .utf8
    ).write(to: big)
    for path in [big.path, "/dev/zero"] {
      let error = try #require(throws: BackendConfigurationError.self) {
        _ = try BackendConfiguration.load(file: path)
      }
      #expect(error.kind == .unreadableFile)
      #expect(error.description.contains(path))
      #expect(
        error.description.contains(path == big.path ? "larger than" : "is not a regular file"))
    }
  }
}
