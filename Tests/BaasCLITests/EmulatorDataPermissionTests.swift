import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `baas emulator --data FILE` holds password hashes, out-of-band and SMS codes and token
/// hashes, as the fake's database does: the same rules. The file, its `-wal` and `-shm`
/// must be owner-only and the user's own, and its directory must be one others cannot
/// write in (there they could plant a `-wal` or a journal). Refused before the emulator
/// starts, exit 2, naming `--data` and the file, suggesting `chmod`, never a removal.
@Suite("baas emulator --data: who may read or change the file", .timeLimit(.minutes(2)))
struct EmulatorDataPermissionTests {
  static func run(_ baas: Baas, data: String) async throws -> BaasResult {
    // A refused file never starts the server; one that is used would run until killed.
    try await baas.run(["emulator", "--port", "0", "--data", data], timeout: 20)
  }

  @Test(
    "a data file, -wal or -shm others may read or write is refused",
    arguments: ["", "-wal", "-shm"])
  func sharedDataFile(suffix: String) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let data = baas.home.appendingPathComponent("users.sqlite").path
    for file in [data, data + suffix] where !FileManager.default.fileExists(atPath: file) {
      try Data().write(to: URL(fileURLWithPath: file))
      #expect(chmod(file, 0o600) == 0)
    }
    let file = data + suffix
    #expect(chmod(file, 0o644) == 0)
    let result = try await Self.run(baas, data: data)
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains("--data"), "\(result.allOutput)")
    #expect(result.standardError.contains(file), "\(result.allOutput)")
    #expect(result.standardError.contains("readable or writable by other users"))
    #expect(result.standardError.contains("chmod 600 \(file)"), "\(result.allOutput)")
    #expect(!result.standardError.contains("remove"), "\(result.allOutput)")
    #expect(!result.standardOutput.contains("ready on"), "\(result.allOutput)")
  }

  @Test("a data file in a directory others may write in is refused", arguments: [0o777, 0o1777])
  func sharedDirectory(mode: Int) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let directory = baas.home.appendingPathComponent("shared", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
    #expect(chmod(directory.path, mode_t(mode)) == 0)
    let data = directory.appendingPathComponent("users.sqlite").path
    let result = try await Self.run(baas, data: data)
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains("--data"), "\(result.allOutput)")
    #expect(result.standardError.contains(directory.path), "\(result.allOutput)")
    #expect(result.standardError.contains("writable by other users"), "\(result.allOutput)")
    #expect(!FileManager.default.fileExists(atPath: data))
  }

  @Test(
    "a data file of another user is refused",
    .enabled(if: geteuid() == 0, "giving a file to another user needs root"),
    arguments: ["", "-wal", "-shm"])
  func foreignDataFile(suffix: String) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let data = baas.home.appendingPathComponent("users.sqlite").path
    for file in [data, data + suffix] where !FileManager.default.fileExists(atPath: file) {
      try Data().write(to: URL(fileURLWithPath: file))
      #expect(chmod(file, 0o600) == 0)
    }
    let file = data + suffix
    #expect(chown(file, 65_534, gid_t.max) == 0)
    let result = try await Self.run(baas, data: data)
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains("--data"), "\(result.allOutput)")
    #expect(result.standardError.contains(file), "\(result.allOutput)")
    #expect(result.standardError.contains("belongs to another user"), "\(result.allOutput)")
    #expect(!result.standardError.contains("remove"), "\(result.allOutput)")
  }
}
