import BackendEmulator
import Foundation
import Testing
import UserBackendKit

/// The last microsecond of 9999 and the first of 0001 are stored on every backend (each
/// at its own precision, never rounded past the range: NCMB keeps milliseconds), and one
/// past either end is refused by the library before any request, the same way everywhere.
@Suite("Document timestamps at the ends of the range, on every layer", .timeLimit(.minutes(2)))
struct TimestampEdgeTests {
  static let latest = DocumentTimestamp.date(microseconds: 253_402_300_799_999_999)
  static let earliest = DocumentTimestamp.date(microseconds: -62_135_596_800_000_000)

  @Test(
    "the ends of the range are stored and read back in range", arguments: IdentifierLayer.allCases)
  func endsAreStored(_ layer: IdentifierLayer) async throws {
    let rig = try EmulatorRig(.inProcess)
    let backend = try layer.backend(rig)
    _ = try await backend.signUp(PasswordCredential(.email("t@example.com"), password: "secret1"))
    let last = DocumentTimestamp.parse("9999-12-31T23:59:59.9996Z")!
    let written = try await backend.userDocuments.updateDocument(
      setting: [
        "a": .timestamp(Self.latest), "b": .timestamp(last), "c": .timestamp(Self.earliest),
      ])
    let read = try #require(try await backend.userDocuments.document())
    for (name, document) in [("write", written), ("read", read)] {
      for field in ["a", "b", "c"] {
        guard case .timestamp(let date) = document.fields[field] else {
          Issue.record("\(name) \(field): \(String(describing: document.fields[field]))")
          continue
        }
        #expect(DocumentTimestamp.microseconds(of: date) != nil, "\(name) \(field)")
      }
    }
  }

  @Test(
    "one microsecond past either end is refused before any request, naming the field",
    arguments: IdentifierLayer.allCases)
  func pastTheEndsIsRefused(_ layer: IdentifierLayer) async throws {
    let rig = try EmulatorRig(.inProcess)
    let backend = try layer.backend(rig)
    _ = try await backend.signUp(PasswordCredential(.email("t@example.com"), password: "secret1"))
    for date in [
      Self.latest.addingTimeInterval(0.001), Self.earliest.addingTimeInterval(-0.001),
    ] {
      let code = await errorCode {
        try await backend.userDocuments.updateDocument(setting: ["t": .timestamp(date)])
      }
      guard case .invalidInput(let field, _) = code else {
        Issue.record("\(String(describing: code))")
        continue
      }
      #expect(field == "fields.t")
    }
    #expect(try await backend.userDocuments.document() == nil)
  }
}
