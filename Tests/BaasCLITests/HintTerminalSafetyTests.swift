import Foundation
import Testing
import UserBackendKit

@testable import baas

/// Every line `baas` prints for a failed operation is terminal-safe, the hint included: a
/// weak-password hint repeats the rules the server listed, word for word when this version
/// cannot classify them.
@Suite("Hints quoting a server are printed inert", .timeLimit(.minutes(1)))
struct HintTerminalSafetyTests {
  @Test(
    "a password rule from the server is escaped in the hint", arguments: TerminalTextTests.hostile)
  func passwordRule(_ payload: String) {
    let error = UserBackendError(
      .weakPassword(minimumLength: 6), backendCode: "WEAK_PASSWORD", message: "weak",
      passwordRequirements: PasswordRequirements(
        minimumLength: 8, unrecognized: ["rule \(payload)"]))
    for backend in ["firebase", "ncmb", "fake"] {
      let lines = HumanOutput.errorLines(error, backend: backend)
      #expect(lines.count == 2, "\(lines.count) lines")
      #expect(lines.allSatisfy(TerminalTextTests.isInert), "\(lines)")
      #expect(lines.last?.hasPrefix("hint: ") == true)
    }
  }
}
