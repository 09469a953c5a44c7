import Testing

@testable import UserBackendKit

/// ``JSONTextCheck`` finds what the Foundation JSON readers lose or refuse without a place,
/// and nothing else; ``DecimalText/jsonNumber(_:)`` and ``DocumentJSONReader`` follow the
/// same rules.
@Suite("JSON text check: names in other bytes, numbers out of range", .timeLimit(.minutes(1)))
struct JSONTextCheckTests {
  @Test(arguments: [
    (#"{"a":{"b":[1,{"caf\u00e9":1,"cafe\u0301":2}]}}"#, "a.b[1].cafe\u{301}"),
    (#"{"x":1,"x":2}"#, "x"),
    (#"{"x":1e-400}"#, "x"), (#"[0,-1e-400]"#, "[1]"), (#"{"x":[1e400]}"#, "x[0]"),
    (#"{"x":-12345678901234567890e-999}"#, "x"),
  ])
  func found(text: String, path: String) throws {
    let problem = try #require(JSONTextCheck.firstProblem(Array(text.utf8)))
    #expect(JSONTextCheck.dotted(problem.path) == path)
  }

  @Test(arguments: [
    #"{"x":5e-324,"y":0e-400,"z":0.000e-999,"w":1.7976931348623157e308}"#,
    #"{"caf\u00e9":1,"cafe":2,"Caf\u00e9":3}"#, #"{"a":{"x":1},"b":{"x":1}}"#,
    #"{"s":"1e-400 \"x\":1,\"x\":2"}"#, "not json", #"{"x":99999999999999999999}"#,
  ])
  func clean(text: String) {
    #expect(JSONTextCheck.firstProblem(Array(text.utf8)) == nil)
  }

  @Test func firestorePaths() {
    let path: [JSONTextCheck.Component] = [
      .member("writes"), .index(0), .member("update"), .member("fields"), .member("m"),
      .member("mapValue"), .member("fields"), .member("a"), .member("arrayValue"),
      .member("values"), .index(2), .member("doubleValue"),
    ]
    #expect(JSONTextCheck.firestoreFieldPath(path) == "writes[0].update.fields.m.a[2]")
  }

  @Test(arguments: ["1e-400", "-1e-400", "1e400", "2.5e-999"])
  func jsonNumberRefusesOutOfRange(text: String) {
    #expect(DecimalText.jsonNumber(text) == nil)
  }

  @Test func documentReaderNamesBothSpellings() {
    let outcome = DocumentJSONReader.read("{\"caf\u{E9}\":1,\"cafe\u{301}\":2}")
    guard case .unusable(let reason) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(reason.contains("U+00E9"), "\(reason)")
    #expect(reason.contains("U+0065 U+0301"), "\(reason)")
  }

  @Test func removalNeedsOnlyAName() throws {
    try DocumentValidation.validateUpdate(
      setting: [:], removing: ["__name__", "__type", "objectId"],
      reserved: DocumentValidation.reservedFieldNames)
    #expect(throws: UserBackendError.self) {
      try DocumentValidation.validateUpdate(
        setting: [:], removing: ["objectId"], unremovable: ["objectId"])
    }
  }
}
