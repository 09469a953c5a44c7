import Foundation
import Testing
import UserBackendKit

@testable import baas

/// `baas doc unset` reads first (an update would create a missing document); a read that
/// fails with `.malformedResponse` is a document this client cannot read (another client
/// wrote one name in two spellings, or a member it cannot decode), and the removal that
/// repairs it is still sent. Before, the read's error ended the command: the repair the
/// README describes never ran. The backends' own repair paths are tested with each
/// adapter (NCMBUnreadableObjectRepairTests, FirestoreUnreadableRepairTests).
@Suite("baas doc unset of a document this client cannot read", .timeLimit(.minutes(1)))
struct DocUnsetUnreadableTests {
  /// A store whose read throws `readError` (or answers `existing`), recording updates.
  final class Store: UserDocumentStore {
    let readError: UserBackendError?
    let existing: UserDocument?
    let updates = LockedValue<[Set<String>]>([])

    init(readError: UserBackendError?, existing: UserDocument? = nil) {
      self.readError = readError
      self.existing = existing
    }

    func document(userID: String?) async throws(UserBackendError) -> UserDocument? {
      if let readError { throw readError }
      return existing
    }
    func createDocument(userID: String?, fields: [String: DocumentValue])
      async throws(UserBackendError) -> DocumentCreation
    {
      throw UserBackendError(.unsupported(capability: .userDocuments))
    }
    func updateDocument(
      userID: String?, setting fields: [String: DocumentValue], removing: Set<String>
    ) async throws(UserBackendError) -> UserDocument {
      updates.withLock { $0.append(removing) }
      return UserDocument(userID: "u", fields: ["x": .integer(1)], createTime: nil, updateTime: nil)
    }
    func deleteDocument(userID: String?) async throws(UserBackendError) {}
  }

  static let nfc = "caf\u{E9}"

  @Test("a document the read cannot read still gets the removal")
  func unreadableIsRepaired() async throws {
    let store = Store(
      readError: UserBackendError(
        .malformedResponse(reason: "Firestore get: fields.café: canonically equivalent")))
    let document = try await DocCommands.unsetFields([Self.nfc], userID: nil, in: store)
    #expect(document?.fields == ["x": .integer(1)])
    let updates = store.updates.withLock { $0 }
    #expect(updates.count == 1)
    #expect(updates.first.map { $0.map { Array($0.utf8) } } == [Array(Self.nfc.utf8)])
  }

  @Test(
    "other read errors end the command and a missing document stays missing",
    arguments: [
      UserBackendError(.permissionDenied), UserBackendError(.notSignedIn),
      UserBackendError(.server(status: 500, code: "DATABASE_ERROR", message: "damaged")),
    ])
  func otherErrors(error: UserBackendError) async throws {
    let store = Store(readError: error)
    await #expect(throws: UserBackendError.self) {
      _ = try await DocCommands.unsetFields(["a"], userID: nil, in: store)
    }
    #expect(store.updates.withLock { $0 }.isEmpty)
    let missing = Store(readError: nil)
    #expect(try await DocCommands.unsetFields(["a"], userID: nil, in: missing) == nil)
    #expect(missing.updates.withLock { $0 }.isEmpty)
  }
}
