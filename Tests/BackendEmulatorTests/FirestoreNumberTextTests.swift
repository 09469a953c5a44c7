import Foundation
import Testing
import UserBackendKit

@testable import BackendEmulator

/// The emulator's Firestore reads a double written as a string the way proto3 JSON
/// writes one, and refuses what only Swift's `Double(_:)` would read.
@Suite("Emulator Firestore: numbers in strings", .timeLimit(.minutes(1)))
struct FirestoreNumberTextTests {
  @Test(arguments: [
    ("-1.5e3", -1500.0), ("0.25", 0.25), ("7", 7), ("Infinity", .infinity),
    ("-Infinity", -.infinity),
  ])
  func accepted(text: String, value: Double) throws {
    let decoded = try FirestoreValueCoding.decode(["doubleValue": text], path: "x")
    #expect(decoded == .double(value))
  }

  @Test(arguments: [
    "0x10", "0x1p4", "+5", ".5", "5.", "inf", "infinity", "nan", " 5", "1e400", "", "٥",
  ])
  func refused(text: String) {
    #expect(throws: FirestoreError.self, "\(text)") {
      try FirestoreValueCoding.decode(["doubleValue": text], path: "x")
    }
  }
}
