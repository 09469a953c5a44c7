import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A state directory other users may write in is refused even with the sticky bit (as
/// `/tmp` has): there another user can create the lock file, the database or the session
/// file first and lock the owner out. And every state file `baas` opens must belong to
/// the user running it: one of another user is refused, naming the file, never used
/// (nor removed).
@Suite("State directory and files belong to the user", .timeLimit(.minutes(2)))
struct StateOwnershipCLITests {
  /// A user ID that is not ours (`nobody`), for files "another user" made.
  static let otherUser: uid_t = 65_534

  /// Only root may give a file away (`chown`); elsewhere the unit tests of
  /// `LocalFileTrust` cover the rule with an injected user.
  static var canGiveFilesAway: Bool { geteuid() == 0 }

  @Test(
    "a sticky directory others may write in (mode 1777, 1770) is refused, for every command",
    arguments: [0o1777, 0o1770])
  func stickySharedDirectory(mode: Int) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let account = uniqueAccount()
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: baas.home.path)
    let commands = [
      ["signup", "--email", account.email], ["signin", "--email", account.email],
      ["whoami"], ["token"], ["signout"],
    ]
    for arguments in commands {
      let result = try await baas.run(arguments, environment: ["BAAS_PASSWORD": account.password])
      #expect(result.status == 2, "\(arguments): \(result.allOutput)")
      #expect(result.standardError.contains("BAAS_HOME"), "\(result.allOutput)")
      #expect(result.standardError.contains(baas.home.path), "\(result.allOutput)")
      #expect(result.standardError.contains("writable by other users"), "\(result.allOutput)")
      #expect(result.standardError.contains("0700"), "\(result.allOutput)")
    }
    let left = try FileManager.default.contentsOfDirectory(atPath: baas.home.path)
    #expect(left.isEmpty, "\(left)")
  }

  @Test(
    "a state file of another user is refused, naming it; nothing is removed or replaced",
    .enabled(if: canGiveFilesAway, "giving a file to another user needs root"),
    arguments: [
      ("fake.session.json", ["whoami"]), ("fake.session.json", ["signout"]),
      ("fake.session.json", ["signin"]), ("fake.session.update.lock", ["signout"]),
      ("fake.session.update.lock", ["signin"]), ("fake.session.lock", ["token", "--refresh"]),
      ("fake.sqlite", ["signin"]), ("fake.sqlite-wal", ["signin"]),
      ("fake.sqlite-shm", ["signin"]), ("fake.sqlite", ["token", "--refresh"]),
    ])
  func foreignStateFile(name: String, command: [String]) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let account = uniqueAccount()
    let password = ["BAAS_PASSWORD": account.password]
    let signUp = try await baas.run(["signup", "--email", account.email], environment: password)
    try #require(signUp.status == 0, "\(signUp.allOutput)")
    let refresh = try await baas.run(["token", "--refresh"])
    try #require(refresh.status == 0, "\(refresh.allOutput)")
    let file = baas.home.appendingPathComponent(name)
    if !FileManager.default.fileExists(atPath: file.path) {
      // The -wal and -shm files exist while a connection is open; another user's would
      // be there before ours.
      try Data().write(to: file)
      try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
    }
    try #require(chown(file.path, Self.otherUser, gid_t.max) == 0)
    let before = try Data(contentsOf: file)
    let arguments = command == ["signin"] ? ["signin", "--email", account.email] : command
    let result = try await baas.run(arguments, environment: password)
    #expect(result.status == 2, "\(arguments) with \(name): \(result.allOutput)")
    #expect(result.standardError.contains("BAAS_HOME"), "\(result.allOutput)")
    #expect(result.standardError.contains(file.path), "\(result.allOutput)")
    #expect(result.standardError.contains("belongs to another user"), "\(result.allOutput)")
    #expect(result.standardError.contains("uid \(Self.otherUser)"), "\(result.allOutput)")
    #expect(!result.standardError.contains("remove"), "\(result.allOutput)")
    #expect(!result.standardError.contains("delete"), "\(result.allOutput)")
    #expect(!result.allOutput.contains(account.password))
    var status = stat()
    #expect(lstat(file.path, &status) == 0, "\(name) is gone")
    #expect(status.st_uid == Self.otherUser)
    #expect(try Data(contentsOf: file) == before)
  }

  @Test(
    "the state directory of another user is refused",
    .enabled(if: canGiveFilesAway, "giving a directory to another user needs root"))
  func foreignStateDirectory() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: baas.home.path)
    try #require(chown(baas.home.path, Self.otherUser, gid_t.max) == 0)
    let account = uniqueAccount()
    let result = try await baas.run(
      ["signup", "--email", account.email], environment: ["BAAS_PASSWORD": account.password])
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains("BAAS_HOME"), "\(result.allOutput)")
    #expect(result.standardError.contains(baas.home.path), "\(result.allOutput)")
    #expect(result.standardError.contains("belongs to another user"), "\(result.allOutput)")
    let left = try FileManager.default.contentsOfDirectory(atPath: baas.home.path)
    #expect(left.isEmpty, "\(left)")
  }
}
