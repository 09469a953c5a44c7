import Foundation
import Testing
import UserBackendKit

@testable import AccountDatabase

/// Times read back from the database file are range-checked: a value outside
/// 0001-01-01…9999-12-31 (which no write of the store produces: only an altered or corrupt
/// file) is a ``UserStoreError/database(message:)`` naming the column or the field, never
/// an overflow trap or a date shown as if valid.
@Suite("UserStore: stored times out of range", .timeLimit(.minutes(1)))
struct StoredTimeRangeTests {
  /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999Z in microseconds since 1970.
  static let earliest: Int64 = -62_135_596_800 * 1_000_000
  static let latest: Int64 = 253_402_300_799 * 1_000_000 + 999_999

  /// A store with one password account (signed in, so it has a refresh token).
  private func store() throws -> (UserStore, UserRecord, refreshToken: String) {
    let store = try UserStore(passwordHashIterations: 1, clock: ManualClock())
    let user = try store.createUser(NewUser(email: "a@example.com", password: "secret1"))
    let token = try store.issueRefreshToken(userID: user.id)
    return (store, user, token)
  }

  private func write(_ store: UserStore, _ sql: String, _ values: [SQLValue] = []) throws {
    _ = try store.locked { db in try db.run(sql, values) }
  }

  /// `true` when `body` throws the store's database error naming `field` and not `value`.
  private func refused(
    naming field: String, notShowing value: String, _ body: () throws -> Void
  ) -> Bool {
    do {
      try body()
      return false
    } catch UserStoreError.database(let message) {
      return message.contains(field) && !message.contains(value)
    } catch {
      return false
    }
  }

  static let microsecondValues: [Int64] = [
    .min, .min + 1, -9_223_372_036_854_775_000, .max, 9_223_372_036_854_775_000,
    earliest - 1, latest + 1,
  ]

  @Test(
    "a document time out of range is a database error naming the column",
    arguments: ["create_time", "update_time"], microsecondValues)
  func documentTimes(column: String, micros: Int64) throws {
    let (store, user, _) = try store()
    _ = try store.createDocumentIfAbsent(userID: user.id, fields: ["x": .integer(1)])
    try write(store, "UPDATE documents SET \(column) = ?", [.integer(micros)])
    #expect(
      refused(naming: "documents.\(column)", notShowing: String(micros)) {
        _ = try store.document(userID: user.id)
      })
    #expect(
      refused(naming: "documents.\(column)", notShowing: String(micros)) {
        _ = try store.updateDocument(userID: user.id, setting: ["y": .integer(2)], removing: [])
      })
    // The damaged document can still be deleted, and then written anew.
    #expect(try store.deleteDocument(userID: user.id))
    _ = try store.createDocumentIfAbsent(userID: user.id, fields: ["x": .integer(1)])
    try write(store, "UPDATE documents SET \(column) = ?", [.integer(micros)])
    let commit = try store.writeDocuments([.delete(userID: user.id, precondition: .exists)])
    #expect(commit.documents == [nil])
    #expect(try store.document(userID: user.id) == nil)
  }

  @Test("a document time stored as text or a fraction is a database error")
  func documentTimeOfAnotherType() throws {
    let (store, user, _) = try store()
    _ = try store.createDocumentIfAbsent(userID: user.id, fields: ["x": .integer(1)])
    for value: SQLValue in [.text("soon"), .real(1.5e300), .real(2.5)] {
      try write(store, "UPDATE documents SET update_time = ?", [value])
      #expect(
        refused(naming: "documents.update_time", notShowing: "1.5e+300") {
          _ = try store.document(userID: user.id)
        })
    }
  }

  @Test(
    "a timestamp field out of range is a database error naming the field; delete repairs",
    arguments: microsecondValues)
  func fieldTimestamps(micros: Int64) throws {
    let (store, user, _) = try store()
    _ = try store.createDocumentIfAbsent(userID: user.id, fields: ["x": .integer(1)])
    for fields in [
      #"{"x":{"t":"\#(micros)"}}"#, #"{"x":{"m":{"deep":{"a":[{"t":"\#(micros)"}]}}}}"#,
    ] {
      try write(store, "UPDATE documents SET fields = ?", [.text(fields)])
      #expect(
        refused(naming: "\"x\"", notShowing: String(micros)) {
          _ = try store.document(userID: user.id)
        })
      // A write that must read the stored fields says the document is damaged (not
      // `invalidInput` on a field the user did not send).
      #expect(
        refused(naming: "\"x\"", notShowing: String(micros)) {
          _ = try store.updateDocument(userID: user.id, setting: ["y": .integer(2)], removing: [])
        })
    }
    #expect(try store.deleteDocument(userID: user.id))
    let fresh = try store.createDocumentIfAbsent(userID: user.id, fields: ["y": .integer(2)])
    #expect(fresh.created)
  }

  @Test("the edges of the range still read back")
  func edgesReadBack() throws {
    let (store, user, _) = try store()
    _ = try store.createDocumentIfAbsent(userID: user.id, fields: ["x": .integer(1)])
    for micros in [Self.earliest, Self.latest] {
      try write(
        store, "UPDATE documents SET update_time = ?, fields = ?",
        [.integer(micros), .text(#"{"x":{"t":"\#(micros)"}}"#)])
      let document = try #require(try store.document(userID: user.id))
      #expect(DocumentTimestamp.microseconds(of: document.updateTime) == micros)
      #expect(document.fields["x"] == .timestamp(DocumentTimestamp.date(microseconds: micros)))
    }
  }

  static let secondValues: [Double] = [
    1e17, 1e300, -1e17, -1e300, 253_402_300_800, -62_135_596_801,
  ]

  @Test(
    "an account time out of range is a database error naming the column",
    arguments: ["created_at", "updated_at", "valid_since", "last_sign_in_at"], secondValues)
  func accountTimes(column: String, seconds: Double) throws {
    let (store, user, _) = try store()
    try write(store, "UPDATE users SET \(column) = ?", [.real(seconds)])
    #expect(
      refused(naming: "users.\(column)", notShowing: "\(seconds)") {
        _ = try store.user(id: user.id)
      })
    #expect(
      refused(naming: "users.\(column)", notShowing: "\(seconds)") {
        _ = try store.user(email: "a@example.com")
      })
  }

  @Test("an account time stored as text is a database error, not 1970")
  func accountTimeAsText() throws {
    let (store, user, _) = try store()
    try write(store, "UPDATE users SET created_at = 'yesterday'")
    #expect(
      refused(naming: "users.created_at", notShowing: "yesterday") {
        _ = try store.user(id: user.id)
      })
  }

  @Test("a sign-in time out of range is a database error", arguments: secondValues)
  func authenticationTime(seconds: Double) throws {
    let (store, _, token) = try store()
    try write(store, "UPDATE refresh_tokens SET authenticated_at = ?", [.real(seconds)])
    #expect(
      refused(naming: "refresh_tokens.authenticated_at", notShowing: "\(seconds)") {
        _ = try store.authenticationTime(refreshToken: token)
      })
  }

  @Test(
    "out-of-band code times out of range are a database error",
    arguments: ["created_at", "expires_at"], [1e17, -1e300])
  func outOfBandCodeTimes(column: String, seconds: Double) throws {
    let (store, user, _) = try store()
    let code = try store.issueOutOfBandCode(.passwordReset, userID: user.id)
    try write(store, "UPDATE out_of_band_codes SET \(column) = ?", [.real(seconds)])
    #expect(
      refused(naming: "out_of_band_codes.\(column)", notShowing: "\(seconds)") {
        _ = try store.outOfBandCodes()
      })
    #expect(
      refused(naming: "out_of_band_codes.\(column)", notShowing: "\(seconds)") {
        _ = try store.outOfBandCode(code.code, of: .passwordReset)
      })
  }

  @Test("phone verification and reset request times out of range are database errors")
  func verificationTimes() throws {
    let (store, _, _) = try store()
    let verification = try store.startPhoneVerification(phoneNumber: "+15555550100")
    try write(store, "UPDATE phone_verifications SET expires_at = 1e300")
    #expect(
      refused(naming: "phone_verifications.expires_at", notShowing: "1e+300") {
        _ = try store.pendingPhoneVerifications()
      })
    #expect(
      refused(naming: "phone_verifications.expires_at", notShowing: "1e+300") {
        _ = try store.completePhoneVerification(
          verificationID: verification.verificationID, code: verification.code)
      })
    try store.recordPasswordResetRequest(email: "a@example.com")
    try write(store, "UPDATE password_reset_requests SET requested_at = -1e300")
    #expect(
      refused(naming: "password_reset_requests.requested_at", notShowing: "1e+300") {
        _ = try store.passwordResetRequests()
      })
  }

  @Test("a failed-attempt count at Int64.max drops the verification instead of trapping")
  func failedAttemptsAtTheLimit() throws {
    let (store, _, _) = try store()
    let verification = try store.startPhoneVerification(phoneNumber: "+15555550100")
    try write(
      store, "UPDATE phone_verifications SET failed_attempts = ?", [.integer(.max)])
    let wrong = verification.code == "000000" ? "111111" : "000000"
    #expect(throws: UserStoreError.invalidVerificationCode) {
      _ = try store.completePhoneVerification(
        verificationID: verification.verificationID, code: wrong)
    }
    #expect(try store.pendingPhoneVerifications().isEmpty)
  }
}
