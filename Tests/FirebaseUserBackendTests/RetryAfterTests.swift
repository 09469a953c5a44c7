import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

@Suite("Firebase: Retry-After from the server never crashes", .timeLimit(.minutes(2)))
struct FirebaseRetryAfterTests {
  static let context = FirebaseErrorContext(
    operation: "accounts:signInWithPassword", capability: .emailPassword)

  static func answer(_ retryAfter: String, json: Bool) -> HTTPResponse {
    let body =
      json
      ? #"{"error":{"code":429,"message":"TOO_MANY_ATTEMPTS_TRY_LATER"}}"# : "slow down"
    return HTTPResponse(
      status: 429, headerFields: ["Retry-After": retryAfter, "Content-Type": "application/json"],
      body: Data(body.utf8))
  }

  @Test(
    "a Retry-After that is not a finite, non-negative number is dropped",
    arguments: ["1e300", "inf", "-inf", "nan", "-5", "abc", "", "0x10", "1e3"], [true, false])
  func dropped(_ value: String, _ json: Bool) {
    let error = FirebaseErrorMapper.error(
      for: Self.answer(value, json: json), context: Self.context)
    guard case .rateLimited(let retryAfter) = error.code else {
      Issue.record("expected rateLimited, got \(error.code)")
      return
    }
    #expect(retryAfter == nil)
    #expect(!error.description.isEmpty)
  }

  @Test(
    "a usable Retry-After is kept, clamped to one day",
    arguments: [("30", 30.0), (" 7 ", 7), ("99999999999999999999999", 86_400), ("1.5", 1.5)])
  func kept(_ value: String, _ expected: TimeInterval) {
    let error = FirebaseErrorMapper.error(
      for: Self.answer(value, json: true), context: Self.context)
    #expect(error.code == .rateLimited(retryAfter: expected))
  }
}
