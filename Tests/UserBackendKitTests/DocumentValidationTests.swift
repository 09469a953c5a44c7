import Foundation
import Testing
import UserBackendKit

@Suite(.timeLimit(.minutes(1)))
struct DocumentValidationTests {
  private func field(of error: UserBackendError) -> String? {
    if case .invalidInput(let field, _) = error.code { return field }
    return nil
  }

  private func rejected(_ body: () throws(UserBackendError) -> Void) -> String? {
    do {
      try body()
      return nil
    } catch {
      return field(of: error) ?? "other: \(error)"
    }
  }

  @Test func acceptsEveryValueKind() throws {
    try DocumentValidation.validateCreate([
      "s": .string("x"), "i": .integer(.min), "d": .double(-0.0), "b": .bool(true),
      "t": .timestamp(Date(timeIntervalSince1970: 0)), "n": .null,
      "a": .array([.integer(1), .map(["k": .string("v")])]),
      "m": .map(["created": .serverTimestamp]), "c": .serverTimestamp,
    ])
  }

  @Test func emptyNamesAreRejectedAtEveryLevel() {
    #expect(
      rejected { () throws(UserBackendError) in
        try DocumentValidation.validateCreate(["": .null])
      } == "fields.")
    #expect(
      rejected { () throws(UserBackendError) in
        try DocumentValidation.validateCreate(["m": .map(["": .null])])
      } == "fields.m.")
    #expect(
      rejected { () throws(UserBackendError) in
        try DocumentValidation.validateCreate(["a": .array([.map(["": .null])])])
      } == "fields.a[0].")
    #expect(
      rejected { () throws(UserBackendError) in
        try DocumentValidation.validateUpdate(setting: [:], removing: [""])
      } == "fields.")
  }

  @Test func fieldNameLengthIsLimitedInBytes() throws {
    let longest = String(repeating: "é", count: 750)  // 1,500 bytes
    try DocumentValidation.validateCreate([longest: .null])
    let field = rejected { () throws(UserBackendError) in
      try DocumentValidation.validateCreate([longest + "x": .null])
    }
    #expect(field?.hasPrefix("fields.éé") == true)
    #expect(field?.hasSuffix("…") == true)
  }

  @Test func serverTimestampIsRefusedInsideArrays() {
    #expect(
      rejected { () throws(UserBackendError) in
        try DocumentValidation.validateCreate(["a": .array([.serverTimestamp])])
      } == "fields.a[0]")
    #expect(
      rejected { () throws(UserBackendError) in
        try DocumentValidation.validateCreate(["a": .array([.map(["t": .serverTimestamp])])])
      } == "fields.a[0].t")
  }

  @Test func depthIsLimitedToTwenty() throws {
    func nested(_ levels: Int, _ wrap: (DocumentValue) -> DocumentValue) -> DocumentValue {
      var value = DocumentValue.integer(1)
      for _ in 1..<levels { value = wrap(value) }
      return value
    }
    try DocumentValidation.validateCreate(["m": nested(20) { .map(["k": $0]) }])
    // Arrays alternate with maps: an array directly inside an array is refused on its own.
    func arrays(_ levels: Int) -> DocumentValue {
      var value = DocumentValue.integer(1)
      for level in 1..<levels {
        value = (levels - level).isMultiple(of: 2) ? .map(["k": value]) : .array([value])
      }
      return value
    }
    try DocumentValidation.validateCreate(["a": arrays(20)])
    #expect(
      rejected { () throws(UserBackendError) in
        try DocumentValidation.validateCreate(["m": nested(21) { .map(["k": $0]) }])
      }?.hasPrefix("fields.m.k") == true)
    #expect(
      rejected { () throws(UserBackendError) in
        try DocumentValidation.validateCreate(["a": arrays(21)])
      }?.hasPrefix("fields.a[0]") == true)
  }

  @Test func documentSizeIsLimited() throws {
    let big = String(repeating: "x", count: DocumentValidation.maximumDocumentSize - 100)
    try DocumentValidation.validateCreate(["b": .string(big)])
    #expect(
      rejected { () throws(UserBackendError) in
        try DocumentValidation.validateCreate([
          "b": .string(big), "c": .string(String(repeating: "y", count: 200)),
        ])
      } == "fields")
    #expect(
      rejected { () throws(UserBackendError) in
        try DocumentValidation.validateSize(
          userID: "u", fields: ["b": .string(big + String(repeating: "z", count: 60))])
      } == "fields")
  }

  @Test func reservedAndConflictingNames() {
    #expect(
      rejected { () throws(UserBackendError) in
        try DocumentValidation.validateCreate(["acl": .null], reserved: ["acl"])
      } == "fields.acl")
    #expect(
      rejected { () throws(UserBackendError) in
        try DocumentValidation.validateUpdate(setting: ["a": .null], removing: ["a"])
      } == "fields.a")
  }

  @Test func timestampsOutsideFirestoresRangeAreRejected() {
    let tooEarly = DocumentValidation.earliestTimestamp.addingTimeInterval(-1)
    let tooLate = DocumentValidation.latestTimestamp.addingTimeInterval(1)
    for date in [tooEarly, tooLate, Date(timeIntervalSinceReferenceDate: .nan)] {
      #expect(
        rejected { () throws(UserBackendError) in
          try DocumentValidation.validateCreate(["t": .timestamp(date)])
        } == "fields.t")
    }
  }
}
