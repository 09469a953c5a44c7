import Foundation
import Testing
import UserBackendKit

@testable import AccountDatabase

/// A fresh directory under the system temporary directory, unique per call.
func makeTemporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("fake-tests-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// An in-memory store with cheap hashing and a manual clock.
func makeStore(clock: ManualClock = ManualClock(), phoneCodeLifetime: TimeInterval = 300) throws
  -> UserStore
{
  try UserStore(
    passwordHashIterations: 1_000, phoneCodeLifetime: phoneCodeLifetime, clock: clock)
}

@Suite(.timeLimit(.minutes(2))) struct UserStoreTests {
  @Test func createdUserIsFoundByEveryKey() throws {
    let clock = ManualClock()
    let store = try makeStore(clock: clock)
    let record = try store.createUser(
      NewUser(
        email: "  Ann@Example.COM ", username: " ann ", password: "secret1",
        phoneNumber: "+819012345678", displayName: "Ann"))
    #expect(record.email == "ann@example.com")
    #expect(record.username == "ann")
    #expect(record.providers == ["password"])
    #expect(record.createdAt == clock.now())
    #expect(try store.user(id: record.id) == record)
    #expect(try store.user(email: "ANN@example.com") == record)
    #expect(try store.user(username: "ann") == record)
    #expect(try store.user(phoneNumber: "+819012345678") == record)
    #expect(try store.user(email: "bob@example.com") == nil)
    #expect(try store.userCount() == 1)
    #expect(record.user.email == "ann@example.com")
  }

  @Test(arguments: [
    ("email", NewUser(email: "ann@example.com"), NewUser(email: " ANN@example.com ")),
    ("username", NewUser(username: "ann"), NewUser(username: "ann ")),
    ("phoneNumber", NewUser(phoneNumber: "+15551234567"), NewUser(phoneNumber: "+15551234567")),
    (
      "providerSubject", NewUser(provider: "apple.com", providerSubject: "sub-1"),
      NewUser(provider: "apple.com", providerSubject: "sub-1")
    ),
  ])
  func duplicateIsRefusedByTheIndex(field: String, first: NewUser, second: NewUser) throws {
    let store = try makeStore()
    _ = try store.createUser(first)
    #expect(throws: UserStoreError.duplicate(field: field)) { try store.createUser(second) }
    #expect(try store.userCount() == 1)
  }

  @Test func accountsWithoutOptionalKeysDoNotCollide() throws {
    let store = try makeStore()
    _ = try store.createUser(NewUser(provider: "anonymous", isAnonymous: true))
    _ = try store.createUser(NewUser(provider: "anonymous", isAnonymous: true))
    #expect(try store.userCount() == 2)
  }

  @Test func concurrentSignUpsOfOneEmailCreateExactlyOneAccount() async throws {
    let store = try makeStore()
    let results = await withTaskGroup(of: Bool.self) { group in
      for index in 0..<24 {
        group.addTask {
          let email = index.isMultiple(of: 2) ? "race@example.com" : " RACE@example.com"
          do {
            _ = try store.createUser(NewUser(email: email, password: "password\(index)"))
            return true
          } catch {
            return false
          }
        }
      }
      var outcomes: [Bool] = []
      for await outcome in group { outcomes.append(outcome) }
      return outcomes
    }
    #expect(results.filter { $0 }.count == 1)
    #expect(try store.userCount() == 1)
  }

  @Test func passwordsVerifyOnlyWithTheRightPassword() throws {
    let store = try makeStore()
    let record = try store.createUser(NewUser(email: "a@example.com", password: "correct horse"))
    #expect(try store.verifyPassword("correct horse", userID: record.id))
    #expect(try !store.verifyPassword("correct horsE", userID: record.id))
    #expect(throws: UserStoreError.userNotFound) {
      try store.verifyPassword("x", userID: "missing")
    }
    try store.updatePassword(userID: record.id, to: "battery staple")
    #expect(try store.verifyPassword("battery staple", userID: record.id))
    #expect(try !store.verifyPassword("correct horse", userID: record.id))
  }

  @Test func passwordHashesUseTheirStoredIterationCount() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("users.sqlite").path
    let id = try UserStore(path: path, passwordHashIterations: 1_000)
      .createUser(NewUser(email: "a@example.com", password: "pa55word")).id
    let reopened = try UserStore(path: path, passwordHashIterations: 2_000)
    #expect(try reopened.verifyPassword("pa55word", userID: id))
  }

  @Test func fileDatabasePersistsAcrossReopen() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("users.sqlite").path
    let token: String
    do {
      let store = try UserStore(path: path, passwordHashIterations: 1_000)
      let record = try store.createUser(NewUser(email: "keep@example.com", password: "secret1"))
      token = try store.issueRefreshToken(userID: record.id)
    }
    let reopened = try UserStore(path: path, passwordHashIterations: 1_000)
    let record = try #require(try reopened.user(email: "keep@example.com"))
    #expect(try reopened.verifyPassword("secret1", userID: record.id))
    #expect(try reopened.rotateRefreshToken(token).userID == record.id)
    #expect(throws: UserStoreError.duplicate(field: "email")) {
      try reopened.createUser(NewUser(email: "Keep@example.com"))
    }
  }

  @Test func profileAndDisabledFlagUpdate() throws {
    let store = try makeStore()
    let record = try store.createUser(NewUser(email: "a@example.com"))
    try store.updateProfile(userID: record.id, displayName: "Ann")
    try store.setDisabled(userID: record.id, true)
    let updated = try #require(try store.user(id: record.id))
    #expect(updated.displayName == "Ann")
    #expect(updated.disabled)
    #expect(throws: UserStoreError.userNotFound) {
      try store.setDisabled(userID: "missing", true)
    }
  }

  @Test func deletingAUserDropsItsTokens() throws {
    let store = try makeStore()
    let record = try store.createUser(NewUser(email: "a@example.com"))
    let refreshToken = try store.issueRefreshToken(userID: record.id)
    let sessionToken = try store.createSessionToken(userID: record.id)
    #expect(try store.deleteUser(id: record.id))
    #expect(try !store.deleteUser(id: record.id))
    #expect(try store.userID(forSessionToken: sessionToken) == nil)
    #expect(throws: UserStoreError.invalidRefreshToken) {
      try store.rotateRefreshToken(refreshToken)
    }
  }

  @Test func deleteAllUsersEmptiesTheStore() throws {
    let store = try makeStore()
    _ = try store.createUser(NewUser(email: "a@example.com"))
    _ = try store.createUser(NewUser(email: "b@example.com"))
    try store.deleteAllUsers()
    #expect(try store.userCount() == 0)
  }

  @Test func sessionTokensResolveUntilDeleted() throws {
    let store = try makeStore()
    let record = try store.createUser(NewUser(username: "ann"))
    let token = try store.createSessionToken(userID: record.id)
    #expect(try store.userID(forSessionToken: token) == record.id)
    #expect(try store.userID(forSessionToken: token + "x") == nil)
    try store.deleteSessionToken(token)
    try store.deleteSessionToken(token)
    #expect(try store.userID(forSessionToken: token) == nil)
    #expect(throws: UserStoreError.userNotFound) { try store.createSessionToken(userID: "none") }
  }

  @Test func passwordResetRequestsAreRecordedCanonically() throws {
    let clock = ManualClock()
    let store = try makeStore(clock: clock)
    try store.recordPasswordResetRequest(email: " A@Example.com")
    clock.advance(by: 5)
    try store.recordPasswordResetRequest(email: "b@example.com")
    let requests = try store.passwordResetRequests()
    #expect(requests.map(\.email) == ["a@example.com", "b@example.com"])
    #expect(requests[1].requestedAt.timeIntervalSince(requests[0].requestedAt) == 5)
  }

  @Test func databaseFileIsOwnerOnly() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("users.sqlite").path
    let store = try UserStore(path: path, passwordHashIterations: 1_000)
    _ = try store.createUser(NewUser(email: "a@example.com", password: "secret1"))
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
  }

  @Test func twoConnectionsToOneFileStillRefuseDuplicates() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("users.sqlite").path
    let stores = [
      try UserStore(path: path, passwordHashIterations: 1_000),
      try UserStore(path: path, passwordHashIterations: 1_000),
    ]
    let successes = await withTaskGroup(of: Int.self) { group in
      for index in 0..<20 {
        group.addTask {
          let created = try? stores[index % 2].createUser(
            NewUser(email: "shared@example.com", password: "secret1"))
          return created == nil ? 0 : 1
        }
      }
      return await group.reduce(0, +)
    }
    #expect(successes == 1)
    #expect(try stores[0].userCount() == 1)
    #expect(try stores[1].userCount() == 1)
  }

  @Test func badDatabasePathIsATypedError() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("missing/dir/users.sqlite").path
    #expect {
      try UserStore(path: path)
    } throws: { error in
      guard case .database = error as? UserStoreError else { return false }
      return true
    }
  }
}
