import Foundation
import Testing
import UserBackendKit

@testable import AccountDatabase

/// Documents in the store: exact round trips of every value kind, one write time,
/// atomic create-if-absent, merges, preconditions, limits, and deletion with the account.
@Suite(.timeLimit(.minutes(2)))
struct UserStoreDocumentTests {
  static let instant = DocumentTimestamp.date(microseconds: 1_764_504_000_123_456)

  static let everyKind: [String: DocumentValue] = [
    "string": .string("héllo \"quoted\" \\ / 🎌"), "empty": .string(""),
    "min": .integer(.min), "max": .integer(.max), "zero": .integer(0),
    "tenth": .double(0.1), "negativeZero": .double(-0.0), "third": .double(1.0 / 3),
    "tiny": .double(.leastNonzeroMagnitude), "huge": .double(.greatestFiniteMagnitude),
    "infinity": .double(.infinity), "minusInfinity": .double(-.infinity),
    "yes": .bool(true), "no": .bool(false), "null": .null,
    "time": .timestamp(instant),
    "early": .timestamp(DocumentTimestamp.date(microseconds: -62_135_596_800_000_000)),
    "list": .array([.integer(1), .string("two"), .map(["inner": .array([])]), .map([:]), .null]),
    "emptyList": .array([]), "emptyMap": .map([:]),
    "nested": .map(["a": .map(["b": .array([.double(2.5), .timestamp(instant)])])]),
  ]

  private func account(_ store: UserStore, _ email: String = "doc@example.com") throws -> String {
    try store.createUser(NewUser(email: email, password: "secret1")).id
  }

  @Test func everyValueKindRoundTripsExactly() throws {
    let store = try makeStore()
    let uid = try account(store)
    let created = try store.createDocumentIfAbsent(userID: uid, fields: Self.everyKind)
    #expect(created.created)
    #expect(created.document.fields == Self.everyKind)
    let read = try #require(try store.document(userID: uid))
    #expect(read.fields == Self.everyKind)
    guard case .double(let zero) = read.fields["negativeZero"] else {
      Issue.record("negativeZero is not a double")
      return
    }
    #expect(zero.sign == .minus)
    // NaN is not equal to itself: checked on its own.
    _ = try store.updateDocument(userID: uid, setting: ["nan": .double(.nan)], removing: [])
    guard case .double(let nan) = try store.document(userID: uid)?.fields["nan"] else {
      Issue.record("nan is not a double")
      return
    }
    #expect(nan.isNaN)
  }

  @Test func serverTimestampsTakeTheOneWriteTimeInMicroseconds() throws {
    let clock = ManualClock(Date(timeIntervalSince1970: 1_764_504_000.123_456_789))
    let store = try makeStore(clock: clock)
    let uid = try account(store)
    let expected = DocumentTimestamp.date(microseconds: 1_764_504_000_123_457)
    let created = try store.createDocumentIfAbsent(
      userID: uid, fields: ["create_date": .serverTimestamp, "m": .map(["at": .serverTimestamp])])
    #expect(created.document.fields["create_date"] == .timestamp(expected))
    #expect(created.document.fields["m"] == .map(["at": .timestamp(expected)]))
    #expect(created.document.createTime == expected)
    #expect(created.document.updateTime == expected)
    clock.advance(by: 5)
    let updated = try store.updateDocument(
      userID: uid, setting: ["seen": .serverTimestamp], removing: ["m"])
    #expect(updated.createTime == expected)
    #expect(updated.updateTime == DocumentTimestamp.date(microseconds: 1_764_504_005_123_457))
    #expect(updated.fields["seen"] == .timestamp(updated.updateTime))
    #expect(updated.fields["create_date"] == .timestamp(expected))
    #expect(updated.fields["m"] == nil)
  }

  @Test func createIfAbsentKeepsAnExistingDocument() throws {
    let store = try makeStore()
    let uid = try account(store)
    _ = try store.createDocumentIfAbsent(userID: uid, fields: ["n": .integer(1)])
    let second = try store.createDocumentIfAbsent(userID: uid, fields: ["n": .integer(2)])
    #expect(!second.created)
    #expect(second.document.fields == ["n": .integer(1)])
  }

  @Test func exactlyOneOfTwentyConcurrentCreatorsWins() async throws {
    let store = try makeStore()
    let uid = try account(store)
    let outcomes = try await withThrowingTaskGroup(of: (Bool, Int64).self) { group in
      for index in 0..<20 {
        group.addTask {
          let result = try store.createDocumentIfAbsent(
            userID: uid, fields: ["writer": .integer(Int64(index))])
          guard case .integer(let writer) = result.document.fields["writer"] else {
            return (result.created, -1)
          }
          return (result.created, writer)
        }
      }
      var all: [(Bool, Int64)] = []
      for try await outcome in group { all.append(outcome) }
      return all
    }
    #expect(outcomes.count == 20)
    let winners = outcomes.filter(\.0)
    #expect(winners.count == 1)
    // Everyone sees the winner's document.
    #expect(Set(outcomes.map(\.1)) == [winners.first?.1 ?? -2])
  }

  @Test func exactlyOneCreatorWinsAcrossTwoConnectionsToOneFile() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("docs.sqlite").path
    let first = try UserStore(path: path, passwordHashIterations: 1_000)
    let second = try UserStore(path: path, passwordHashIterations: 1_000)
    let uid = try account(first)
    let created = try await withThrowingTaskGroup(of: Bool.self) { group in
      for index in 0..<20 {
        let store = index.isMultiple(of: 2) ? first : second
        group.addTask {
          try store.createDocumentIfAbsent(userID: uid, fields: ["i": .integer(Int64(index))])
            .created
        }
      }
      var count = 0
      for try await wasCreated in group where wasCreated { count += 1 }
      return count
    }
    #expect(created == 1)
  }

  @Test func mergeSetsRemovesAndKeepsTheRest() throws {
    let store = try makeStore()
    let uid = try account(store)
    _ = try store.updateDocument(
      userID: uid, setting: ["a": .integer(1), "b": .string("x")], removing: [])
    let merged = try store.updateDocument(
      userID: uid, setting: ["c": .bool(true)], removing: ["a", "missing"])
    #expect(merged.fields == ["b": .string("x"), "c": .bool(true)])
  }

  @Test func nestedPathsPreconditionsAndAtomicCommits() throws {
    let store = try makeStore()
    let uid = try account(store)
    let other = try account(store, "other@example.com")
    #expect(throws: DocumentStoreError.notFound(userID: uid)) {
      try store.writeDocuments([.delete(userID: uid, precondition: .exists)])
    }
    _ = try store.writeDocuments([
      .merge(
        userID: uid, setting: [["m", "x"]: .integer(1), ["m", "y"]: .integer(2)], removing: [],
        serverTimestamps: [["m", "at"]], precondition: .missing)
    ])
    // The second write fails its precondition: the first is not applied either.
    #expect(throws: DocumentStoreError.alreadyExists(userID: uid)) {
      try store.writeDocuments([
        .replace(userID: other, fields: ["o": .null], serverTimestamps: [], precondition: .none),
        .replace(userID: uid, fields: [:], serverTimestamps: [], precondition: .missing),
      ])
    }
    #expect(try store.document(userID: other) == nil)
    let commit = try store.writeDocuments([
      .merge(
        userID: uid, setting: [:], removing: [["m", "x"]], serverTimestamps: [],
        precondition: .exists)
    ])
    let fields = try #require(commit.documents[0]).fields
    guard case .map(let m) = fields["m"] else {
      Issue.record("m is not a map")
      return
    }
    #expect(m["x"] == nil)
    #expect(m["y"] == .integer(2))
    #expect(m["at"] != nil)
  }

  @Test func aRefusedWriteChangesNothing() throws {
    let store = try makeStore()
    let uid = try account(store)
    _ = try store.createDocumentIfAbsent(userID: uid, fields: ["keep": .string("me")])
    let big = String(repeating: "x", count: DocumentValidation.maximumDocumentSize)
    #expect(throws: UserBackendError.self) {
      try store.updateDocument(userID: uid, setting: ["big": .string(big)], removing: [])
    }
    let half = String(repeating: "y", count: DocumentValidation.maximumDocumentSize / 2 + 10)
    _ = try store.updateDocument(userID: uid, setting: ["one": .string(half)], removing: [])
    // Each write alone is under the limit; the merged document is not.
    #expect(throws: UserBackendError.self) {
      try store.updateDocument(userID: uid, setting: ["two": .string(half)], removing: [])
    }
    #expect(throws: UserBackendError.self) {
      try store.createDocumentIfAbsent(userID: uid, fields: ["": .null])
    }
    #expect(throws: UserBackendError.self) {
      try store.writeDocuments([
        .merge(
          userID: uid, setting: [["a"]: .array([.serverTimestamp])], removing: [],
          serverTimestamps: [], precondition: .none)
      ])
    }
    let fields = try #require(try store.document(userID: uid)).fields
    #expect(Set(fields.keys) == ["keep", "one"])
  }

  @Test func documentsExistOnlyBesideAccountsAndGoWithThem() throws {
    let store = try makeStore()
    #expect(throws: DocumentStoreError.noSuchAccount(userID: "nobody")) {
      try store.createDocumentIfAbsent(userID: "nobody", fields: [:])
    }
    let uid = try account(store)
    _ = try store.createDocumentIfAbsent(userID: uid, fields: ["a": .integer(1)])
    #expect(try store.deleteUser(id: uid))
    #expect(try store.document(userID: uid) == nil)
    #expect(
      try store.database.withLock { try $0.integer("SELECT COUNT(*) FROM documents") } == 0)
    let again = try account(store, "again@example.com")
    _ = try store.createDocumentIfAbsent(userID: again, fields: [:])
    try store.deleteAllUsers()
    #expect(
      try store.database.withLock { try $0.integer("SELECT COUNT(*) FROM documents") } == 0)
  }

  @Test func deleteOfAMissingDocumentIsFine() throws {
    let store = try makeStore()
    let uid = try account(store)
    #expect(try store.deleteDocument(userID: uid) == false)
    _ = try store.createDocumentIfAbsent(userID: uid, fields: [:])
    #expect(try store.deleteDocument(userID: uid) == true)
  }

  @Test func theVersion0FixtureMigratesToDocuments() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("accounts.sqlite").path
    let fixture = try #require(
      Bundle.module.url(
        forResource: "accounts-v0", withExtension: "sqlite", subdirectory: "Fixtures"))
    try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
    let store = try UserStore(path: path, passwordHashIterations: 1_000)
    let ada = try #require(try store.user(email: "ada@example.com"))
    _ = try store.createDocumentIfAbsent(userID: ada.id, fields: ["uid": .string(ada.id)])
    #expect(try store.deleteUser(id: ada.id))
    #expect(try store.document(userID: ada.id) == nil)
  }

  @Test func aVersion2FileGainsTheDocumentsTable() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("v2.sqlite").path
    let uid: String
    do {
      let store = try UserStore(path: path, passwordHashIterations: 1_000)
      uid = try account(store)
      // Back to version 2's shape: no documents or ACL table, no sign-in facts column
      // (version 4), stamped 2.
      try store.database.withLock {
        try $0.execute(
          script: "DROP TABLE documents; DROP TABLE user_acls; "
            + "ALTER TABLE refresh_tokens DROP COLUMN sign_in_facts; PRAGMA user_version=2;")
      }
    }
    let store = try UserStore(path: path, passwordHashIterations: 1_000)
    #expect(
      try store.database.withLock { try $0.integer("PRAGMA user_version") }
        == Int64(UserStoreSchema.currentVersion))
    let created = try store.createDocumentIfAbsent(userID: uid, fields: ["a": .integer(1)])
    #expect(created.created)
    #expect(try store.user(id: uid) != nil)
  }
}
