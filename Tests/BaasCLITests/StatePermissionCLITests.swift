import Foundation
import Testing

/// The files `baas` keeps, and the state directory, are refused when others may read them
/// (the files) or write in it (the directory), as the session file always was: exit 2,
/// naming `BAAS_HOME` and the path. And what `baas` creates is owner-only.
@Suite("State directory and fake database permissions", .timeLimit(.minutes(2)))
struct StatePermissionCLITests {
  static func mode(_ url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return try #require(attributes[.posixPermissions] as? Int)
  }

  static func setMode(_ mode: Int, _ url: URL) throws {
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
  }

  @Test(
    "a state directory others may write in without the sticky bit is refused",
    arguments: [0o777, 0o770, 0o702])
  func writableDirectory(mode: Int) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let account = uniqueAccount()
    try Self.setMode(mode, baas.home)
    for arguments in [["signup", "--email", account.email], ["whoami"]] {
      let result = try await baas.run(arguments, environment: ["BAAS_PASSWORD": account.password])
      #expect(result.status == 2, "\(arguments): \(result.allOutput)")
      #expect(result.standardError.contains("BAAS_HOME"), "\(result.allOutput)")
      #expect(result.standardError.contains("writable by other users"), "\(result.allOutput)")
      #expect(
        !FileManager.default.fileExists(
          atPath: baas.home.appendingPathComponent("fake.sqlite").path))
    }
  }

  @Test("a directory only readable by others is used (one others may write in is not)")
  func readableDirectory() async throws {
    for mode in [0o755, 0o750, 0o700] {
      let baas = try Baas()
      defer { baas.cleanUp() }
      try Self.setMode(mode, baas.home)
      let account = uniqueAccount()
      let result = try await baas.run(
        ["signup", "--email", account.email], environment: ["BAAS_PASSWORD": account.password])
      #expect(result.status == 0, "mode \(String(mode, radix: 8)): \(result.allOutput)")
    }
  }

  @Test("the fake's database readable by others is refused; new files are owner-only")
  func databaseMode() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let account = uniqueAccount()
    let password = ["BAAS_PASSWORD": account.password]
    let signUp = try await baas.run(["signup", "--email", account.email], environment: password)
    #expect(signUp.status == 0, "\(signUp.allOutput)")
    let database = baas.home.appendingPathComponent("fake.sqlite")
    #expect(try Self.mode(database) == 0o600)
    #expect(try Self.mode(baas.home.appendingPathComponent("fake.session.json")) == 0o600)
    // The -wal and -shm files exist while a connection is open: made here as SQLite makes
    // them. Removing any of the three loses committed data, so no message may suggest it.
    for suffix in ["-wal", "-shm"] {
      let file = URL(fileURLWithPath: database.path + suffix)
      if !FileManager.default.fileExists(atPath: file.path) { try Data().write(to: file) }
      try Self.setMode(0o600, file)
    }
    for suffix in ["", "-wal", "-shm"] {
      let file = URL(fileURLWithPath: database.path + suffix)
      for mode in [0o644, 0o640, 0o606] {
        try Self.setMode(mode, file)
        let signIn = try await baas.run(
          ["signin", "--email", account.email], environment: password)
        #expect(signIn.status == 2, "\(signIn.allOutput)")
        #expect(signIn.standardError.contains("BAAS_HOME"), "\(signIn.allOutput)")
        #expect(signIn.standardError.contains(file.path), "\(signIn.allOutput)")
        #expect(signIn.standardError.contains("other users"), "\(signIn.allOutput)")
        #expect(
          signIn.standardError.contains("chmod 600 \(file.path)"), "\(signIn.allOutput)")
        #expect(!signIn.standardError.contains("remove"), "\(signIn.allOutput)")
        #expect(!signIn.standardError.contains("delete"), "\(signIn.allOutput)")
      }
      try Self.setMode(0o600, file)
    }
    let again = try await baas.run(["signin", "--email", account.email], environment: password)
    #expect(again.status == 0, "\(again.allOutput)")
  }
}
