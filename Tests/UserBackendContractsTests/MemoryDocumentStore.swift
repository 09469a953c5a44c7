import Foundation
import UserBackendContracts
import UserBackendKit

/// The memory server's documents behind the owner rule (issue 13), with the flaws that
/// must make the document contracts fail.
struct MemoryDocumentStore: UserDocumentStore {
  let backend: MemoryBackend
  private var server: MemoryServer { backend.server }
  private func has(_ flaw: MemoryServer.Flaw) -> Bool { server.flaws.contains(flaw) }

  /// The owner ID the request addresses, after the sign-in and owner checks.
  private func owner(_ userID: String?) async throws(UserBackendError) -> String {
    let me = try await backend.requireSession().user.id
    let target = userID ?? me
    if target != me, !has(.documentsIgnoreOwner) {
      throw UserBackendError(.permissionDenied, backendCode: "PERMISSION_DENIED")
    }
    return target
  }

  private func answer(_ document: UserDocument) -> UserDocument {
    var document = document
    if has(.documentWrongOwner) { document.userID = "someone-else" }
    return document
  }

  /// Server timestamps resolved, and the storage flaws applied.
  private func stored(_ value: DocumentValue) -> DocumentValue {
    switch value {
    case .serverTimestamp: return stored(.timestamp(server.clock.now()))
    case .integer(let number) where has(.integersAsDoubles): return .double(Double(number))
    case .timestamp(let date) where has(.timestampsToSeconds):
      return .timestamp(Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
    case .array(let values): return .array(values.map(stored))
    case .map(let values): return .map(values.mapValues(stored))
    default: return value
    }
  }

  func document(userID: String?) async throws(UserBackendError) -> UserDocument? {
    if has(.documentsWithoutSignIn), try await backend.loadSession() == nil { return nil }
    let owner = try await owner(userID)
    return server.documents.withLock { $0[owner] }.map(answer)
  }

  func createDocument(userID: String?, fields: [String: DocumentValue])
    async throws(UserBackendError) -> DocumentCreation
  {
    let owner = try await owner(userID)
    let now = server.clock.now()
    let values = fields.mapValues(stored)
    let creation = server.documents.withLock { all in
      if let existing = all[owner], !has(.createOverwrites) {
        return DocumentCreation(document: existing, created: false)
      }
      let document = UserDocument(userID: owner, fields: values, createTime: now, updateTime: now)
      all[owner] = document
      return DocumentCreation(document: document, created: true)
    }
    return DocumentCreation(document: answer(creation.document), created: creation.created)
  }

  func updateDocument(
    userID: String?, setting fields: [String: DocumentValue], removing: Set<String>
  ) async throws(UserBackendError) -> UserDocument {
    let owner = try await owner(userID)
    let now = server.clock.now()
    let values = fields.mapValues(stored)
    let document = server.documents.withLock { all in
      var document =
        all[owner] ?? UserDocument(userID: owner, fields: [:], createTime: now, updateTime: now)
      if has(.updateReplaces) { document.fields = [:] }
      document.fields.merge(values) { _, new in new }
      for name in removing { document.fields[name] = nil }
      document.updateTime = now
      all[owner] = document
      return document
    }
    return answer(document)
  }

  func deleteDocument(userID: String?) async throws(UserBackendError) {
    let owner = try await owner(userID)
    server.documents.withLock { $0[owner] = nil }
  }
}
