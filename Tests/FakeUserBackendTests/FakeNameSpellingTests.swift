import Foundation
import Testing
import UserBackendKit

@testable import AccountDatabase
@testable import FakeUserBackend

/// Field names that are the same text in other bytes (`é` as U+00E9 and as `e` + U+0301,
/// canonically equivalent) are one key to a Swift dictionary: the fake never merges them.
/// A stored document holding both is a database error naming the field (not one of the
/// two values dropped), and a write naming a stored field in other bytes is refused
/// naming the stored one (not applied to it under its old bytes).
@Suite("Fake: names equal but for their bytes are never merged", .timeLimit(.minutes(1)))
struct FakeNameSpellingTests {
  static let nfc = "caf\u{E9}"
  static let nfd = "cafe\u{301}"

  private func failure(_ body: () async throws(UserBackendError) -> Void) async
    -> UserBackendError?
  {
    do {
      try await body()
      return nil
    } catch {
      return error
    }
  }

  @Test(
    "a stored document holding both spellings is DATABASE_ERROR naming the field",
    arguments: [
      (#"{"\#(nfc)":{"i":"1"},"\#(nfd)":{"i":"2"}}"#, nfd),
      (#"{"m":{"m":{"\#(nfd)":{"i":"1"},"\#(nfc)":{"i":"2"}}}}"#, "m.\(nfc)"),
      (#"{"a":{"a":[{"n":true},{"m":{"\#(nfd)":{"i":"1"},"\#(nfc)":{"i":"2"}}}]}}"#, "a[1].\(nfc)"),
    ])
  func storedBothSpellings(fields: String, field: String) async throws {
    let fixture = try Fixture()
    _ = try await fixture.backend.signUp(.email("a@example.com", password: "secret1"))
    let documents = fixture.backend.userDocuments
    _ = try await documents.updateDocument(setting: ["x": .integer(1)], removing: [])
    _ = try fixture.store.locked { db in
      try db.run("UPDATE documents SET fields = ?", [.text(fields)])
    }
    let read = await failure { () async throws(UserBackendError) in
      _ = try await documents.document()
    }
    guard case .server(let status, let code, let message)? = read?.code else {
      Issue.record("\(String(describing: read))")
      return
    }
    #expect(status == 500)
    #expect(code == "DATABASE_ERROR")
    #expect(message?.contains("\"\(field)\"") == true, "\(String(describing: message))")
  }

  @Test("a write naming a stored field in other bytes is refused naming the stored field")
  func writeInOtherBytes() async throws {
    let fixture = try Fixture()
    _ = try await fixture.backend.signUp(.email("a@example.com", password: "secret1"))
    let documents = fixture.backend.userDocuments
    _ = try await documents.updateDocument(setting: [Self.nfd: .integer(1)], removing: [])
    for (setting, removing) in [
      ([Self.nfc: DocumentValue.integer(2)], Set<String>()), ([:], [Self.nfc]),
    ] {
      let refused = await failure { () async throws(UserBackendError) in
        _ = try await documents.updateDocument(setting: setting, removing: removing)
      }
      guard case .invalidInput(let field, let reason)? = refused?.code else {
        Issue.record("\(String(describing: refused))")
        continue
      }
      #expect(field == "fields.\(Self.nfc)")
      #expect(reason.contains("U+0065 U+0301"), "names the stored field: \(reason)")
    }
    let fields = try #require(try await documents.document()).fields
    #expect(fields.keys.map { Array($0.utf8) } == [Array(Self.nfd.utf8)])
    #expect(fields[Self.nfd] == .integer(1))
    // In the stored bytes, it can be changed and removed.
    _ = try await documents.updateDocument(setting: [Self.nfd: .integer(3)], removing: [])
    let removed = try await documents.updateDocument(setting: [:], removing: [Self.nfd])
    #expect(removed.fields.isEmpty)
  }
}
