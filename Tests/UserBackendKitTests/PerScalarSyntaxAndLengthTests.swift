import Foundation
import Testing

@testable import UserBackendKit

/// A syntax character followed by a combining mark is one Swift `Character` that is not
/// the syntax character, and `"a"` with thousands of combining marks is one `Character`:
/// splits and length limits over untrusted text work per Unicode scalar, as the other end
/// of the wire reads them.
@Suite("Splits and limits per code point", .timeLimit(.minutes(1)))
struct PerScalarSyntaxAndLengthTests {
  static func marks(_ count: Int) -> String { String(repeating: "\u{301}", count: count) }

  @Test("ScalarSplit splits at a separator that carries a combining mark")
  func split() throws {
    let first = try #require(ScalarSplit.first("=", in: "a=\u{301}b=1"))
    #expect(Array(first.before.unicodeScalars) == ["a"])
    #expect(Array(first.after.unicodeScalars) == ["\u{301}", "b", "=", "1"])
    let last = try #require(ScalarSplit.last(":", in: "r:x:\u{301}s"))
    #expect(Array(last.before.unicodeScalars) == ["r", ":", "x"])
    #expect(Array(last.after.unicodeScalars) == ["\u{301}", "s"])
    #expect(ScalarSplit.first("=", in: "abc") == nil)
  }

  @Test("KIND:VALUE splits at a colon that carries a combining mark")
  func appVerificationSplit() throws {
    let proof = try AppVerificationProof(parsing: "ios:receipt:\u{301}secret")
    guard case .iosReceipt(let receipt, let secret) = proof else {
      Issue.record("\(proof)")
      return
    }
    #expect(receipt == "receipt")
    #expect(Array(secret.unicodeScalars) == Array("\u{301}secret".unicodeScalars))
  }

  @Test("an app-verification value's length counts code points")
  func appVerificationLength() {
    let long = "recaptcha:a" + Self.marks(AppVerificationProof.maximumValueLength)
    #expect(throws: UserBackendError.self) { try AppVerificationProof(parsing: long) }
    let fits = "recaptcha:a" + Self.marks(AppVerificationProof.maximumValueLength - 1)
    #expect(throws: Never.self) { try AppVerificationProof(parsing: fits) }
  }

  @Test("a server-sent user ID's length counts code points")
  func answeredUserID() {
    #expect(throws: UserBackendError.self) {
      try AnswerLimits.check(User(id: "a" + Self.marks(128)))
    }
    #expect(throws: Never.self) { try AnswerLimits.check(User(id: "a" + Self.marks(127))) }
  }

  @Test(
    "a name starting with __ per code point is refused",
    arguments: ["__\u{301}x", "_\u{5F}\u{301}"])
  func reservedPrefix(name: String) {
    #expect(throws: UserBackendError.self) {
      try DocumentValidation.validateCreate([name: .integer(1)])
    }
  }
}
