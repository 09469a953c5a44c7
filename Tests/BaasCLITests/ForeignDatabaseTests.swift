import Foundation
import Testing

/// A database file the store cannot open (not SQLite, another application's, a newer
/// schema) is reported like any other local state problem, exit 2, naming the file, and
/// the file is left as it was.
@Suite("baas: a foreign or newer account database is refused", .timeLimit(.minutes(10)))
struct ForeignDatabaseTests {
  static let notSQLite = Data("these are notes, not a database\n".utf8)

  @Test("emulator --data with a non-SQLite file: cannot open the data file, exit 2")
  func emulatorDataFile() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let path = baas.home.appendingPathComponent("notes.txt").path
    try Self.notSQLite.write(to: URL(fileURLWithPath: path))
    // Owner-only, as a data file must be: one others may read is refused before it is read.
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    let result = try await baas.run(["emulator", "--port", "0", "--data", path], timeout: 20)
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains("cannot open the data file \(path)"))
    #expect(result.standardError.contains("not an SQLite database"))
    #expect(result.standardError.contains("left unchanged"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Self.notSQLite)
  }

  @Test("the fake's database in BAAS_HOME not SQLite: misconfigured BAAS_HOME, exit 2")
  func fakeDatabase() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    try FileManager.default.createDirectory(at: baas.home, withIntermediateDirectories: true)
    let database = baas.home.appendingPathComponent("fake.sqlite")
    try Self.notSQLite.write(to: database)
    // Owner-only, as baas creates it: a file others may read is refused before it is read.
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: database.path)
    let account = uniqueAccount()
    let result = try await baas.run(
      ["signup", "--email", account.email, "--json"],
      environment: ["BAAS_PASSWORD": account.password])
    #expect(result.status == 2, "\(result.allOutput)")
    let error = try #require(try result.json()["error"] as? [String: Any])
    #expect(error["code"] as? String == "misconfigured")
    let message = try #require(error["message"] as? String)
    #expect(message.contains("BAAS_HOME"))
    #expect(message.contains(database.path))
    #expect(message.contains("not an SQLite database"))
    #expect(try Data(contentsOf: database) == Self.notSQLite)
  }
}
