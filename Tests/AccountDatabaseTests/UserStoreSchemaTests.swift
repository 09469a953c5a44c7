import Foundation
import Testing
import UserBackendKit

@testable import AccountDatabase

/// The account database records its schema version and application ID: a file from before
/// versions (the committed fixture `Fixtures/accounts-v0.sqlite`, written by the store as
/// it was before this change) is migrated; a newer, foreign or non-SQLite file is refused,
/// naming the file and the versions, and is left byte for byte as it was.
@Suite("UserStore: schema versions, migration, foreign files", .timeLimit(.minutes(1)))
struct UserStoreSchemaTests {
  @Test func aNewFileIsStampedWithTheApplicationIDAndTheCurrentVersion() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("new.sqlite")
    _ = try UserStore(path: path, passwordHashIterations: 1_000)
    #expect(try stamps(of: path) == (UserStoreSchema.applicationID, UserStoreSchema.currentVersion))
    // Opening it again is no migration and keeps it.
    let again = try UserStore(path: path, passwordHashIterations: 1_000)
    #expect(try again.userCount() == 0)
  }

  @Test func aVersion1FileFromTheFixtureIsMigratedAndKeepsItsAccounts() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("accounts-v1.sqlite")
    let fixture = try #require(
      Bundle.module.url(
        forResource: "accounts-v1", withExtension: "sqlite", subdirectory: "Fixtures"))
    try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
    #expect(try stamps(of: path) == (UserStoreSchema.applicationID, 1))
    let store = try UserStore(path: path, passwordHashIterations: 1_000)
    #expect(try stamps(of: path) == (UserStoreSchema.applicationID, UserStoreSchema.currentVersion))
    #expect(try store.userCount() == 5)
    let ada = try #require(try store.user(email: "ada@example.com"))
    #expect(try store.verifyPassword("correct horse 1", userID: ada.id))
    // Version 2's columns and version 3's table work on the migrated accounts.
    #expect(!ada.emailVerified && ada.photoURL == nil)
    let created = try store.createDocumentIfAbsent(userID: ada.id, fields: ["n": .integer(1)])
    #expect(created.created)
    _ = try store.updateEmail(userID: ada.id, to: "ada@example.org")
    #expect(try store.deleteUser(id: ada.id))
    #expect(try store.document(userID: ada.id) == nil)
  }

  @Test func aVersion0FileFromTheFixtureIsMigratedAndKeepsItsAccounts() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("accounts.sqlite")
    let fixture = try #require(
      Bundle.module.url(
        forResource: "accounts-v0", withExtension: "sqlite", subdirectory: "Fixtures"))
    try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
    #expect(try stamps(of: path) == (0, 0))

    do {
      let store = try UserStore(path: path, passwordHashIterations: 1_000)
      #expect(try store.userCount() == 5)
      let ada = try #require(try store.user(email: "ada@example.com"))
      #expect(ada.id == "7207ba2a-b0e9-46cb-abab-6e63787c2547")
      #expect(ada.displayName == "Ada")
      #expect(try store.verifyPassword("correct horse 1", userID: ada.id))
      #expect(try store.user(username: "grace") != nil)
      #expect(try store.user(phoneNumber: "+819012345678") != nil)
      #expect(try store.user(provider: "apple.com", subject: "001234.abcd") != nil)
      #expect(try store.refreshTokenRotationCount(userID: ada.id) == 1)
      // Expired by now (a five-minute code), but kept in the table.
      #expect(
        try store.database.withLock { try $0.integer("SELECT COUNT(*) FROM phone_verifications") }
          == 1)
      #expect(try store.passwordResetRequests().count == 1)
      // The UNIQUE indexes survived: the same email is refused.
      #expect(throws: UserStoreError.duplicate(field: "email")) {
        try store.createUser(NewUser(email: "ADA@example.com"))
      }
      _ = try store.createUser(NewUser(email: "new@example.com", password: "after migration"))
    }
    #expect(try stamps(of: path) == (UserStoreSchema.applicationID, UserStoreSchema.currentVersion))
    let reopened = try UserStore(path: path, passwordHashIterations: 1_000)
    #expect(try reopened.userCount() == 6)
  }

  @Test func aFileOfANewerVersionIsRefusedAndUnchanged() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("newer.sqlite")
    do {
      let store = try UserStore(path: path, passwordHashIterations: 1_000)
      _ = try store.createUser(NewUser(email: "ada@example.com"))
      try store.database.withLock { try $0.execute(script: "PRAGMA user_version=7") }
    }
    let error = try refusal(opening: path)
    #expect(error.problem == .newerVersion(7))
    #expect(error.description.contains(path))
    #expect(error.description.contains("schema version 7"))
    #expect(error.description.contains("0…\(UserStoreSchema.currentVersion)"))
  }

  @Test func anotherApplicationsSQLiteFileIsRefusedAndUnchanged() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("other-app.sqlite")
    try writeSQLite(
      at: path,
      "PRAGMA application_id=305419896; PRAGMA user_version=3; CREATE TABLE notes (body TEXT);")
    let error = try refusal(opening: path)
    #expect(error.problem == .foreignApplication(applicationID: 0x1234_5678, version: 3))
    #expect(error.description.contains(path))
    #expect(error.description.contains("0x12345678"))
    #expect(error.description.contains("user_version 3"))
    #expect(error.description.contains("0x55424B44"))
  }

  @Test(
    "an unstamped SQLite file with other tables is refused and unchanged",
    arguments: [
      "CREATE TABLE notes (body TEXT);",
      // A `users` table of someone else's making.
      "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT);",
      // Our tables plus one of another application's.
      UserStoreSchema.tables + "CREATE TABLE notes (body TEXT);",
    ])
  func anUnstampedForeignSchemaIsRefused(script: String) throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("unstamped.sqlite")
    try writeSQLite(at: path, script)
    let error = try refusal(opening: path)
    #expect(error.problem == .foreignSchema)
    #expect(error.description.contains(path))
  }

  @Test(
    "a file that is not SQLite is refused and unchanged",
    arguments: [
      Data("just some text, not a database\n".utf8),
      Data(repeating: 0xAB, count: 8_192),
      Data("SQLite format 3\u{0}".utf8) + Data(repeating: 0xFF, count: 200),
    ])
  func aNonSQLiteFileIsRefused(contents: Data) throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("not-sqlite.sqlite")
    try contents.write(to: URL(fileURLWithPath: path))
    let error = try refusal(opening: path)
    #expect(error.problem == .notADatabase)
    #expect(error.description.contains(path))
    #expect(error.description.contains("not an SQLite database"))
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
  }

  // MARK: - Helpers

  /// Opens `path` expecting a refusal; checks that the file's SHA-256 did not change.
  private func refusal(opening path: String) throws -> UserStoreFileError {
    let before = Crypto.sha256(try Data(contentsOf: URL(fileURLWithPath: path)))
    let error = try #require(throws: UserStoreFileError.self) {
      try UserStore(path: path, passwordHashIterations: 1_000)
    }
    let after = Crypto.sha256(try Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(before == after, "the refused file was changed")
    #expect(error.path == path)
    return error
  }

  private func stamps(of path: String) throws -> (Int32, Int) {
    let database = try Database(path: path)
    return (
      Int32(truncatingIfNeeded: try database.integer("PRAGMA application_id")),
      Int(try database.integer("PRAGMA user_version"))
    )
  }

  private func writeSQLite(at path: String, _ script: String) throws {
    let database = try Database(path: path)
    try database.execute(script: script)
  }
}

/// A fresh directory under the temporary directory, removed on `deinit`.
final class TemporaryDirectory {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "UserStoreSchemaTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  deinit { try? FileManager.default.removeItem(at: url) }
}
