import Foundation
import Synchronization
import UserBackendKit

/// Per-user documents (schema version 3): one row per account in `documents`, deleted with
/// the account (`ON DELETE CASCADE`).
///
/// Every write runs inside one `BEGIN IMMEDIATE` transaction under the store's lock, so a
/// create-if-absent is atomic: of any number of concurrent creators (threads or processes
/// sharing the file) exactly one creates the document and the others read it. A write
/// takes one time from the store clock, rounded to microseconds: its `updateTime` (and
/// `createTime` when it creates) and every server timestamp it resolves. What a write
/// names is checked (``UserBackendKit/DocumentValidation``: names, depth, timestamps) and
/// the resulting document's size (1 MiB) before anything is stored; a refused write
/// changes nothing. Fields the document already holds are not checked again: a document
/// stored before a name rule existed (a `__name__` field) can still be merged into, and
/// the field removed.
extension UserStore {
  /// The document of `userID`, or `nil` when it does not exist.
  /// - Throws: ``UserStoreError/database(message:)``.
  public func document(userID: String) throws -> StoredDocument? {
    try lockedDocuments { db in try Self.readDocument(userID, db) }
  }

  /// Creates the document with `fields` unless it exists; ``UserBackendKit/DocumentValue/serverTimestamp``
  /// values (top level or inside maps) become the write's time.
  ///
  /// - Returns: the stored document and `true` when this call created it; the existing
  ///   document, unchanged, and `false` when it existed.
  /// - Throws: ``UserBackendKit/UserBackendError`` `.invalidInput(field:reason:)` for fields
  ///   ``UserBackendKit/DocumentValidation`` refuses; ``DocumentStoreError/noSuchAccount(userID:)``;
  ///   ``UserStoreError/database(message:)``.
  public func createDocumentIfAbsent(userID: String, fields: [String: DocumentValue]) throws
    -> (document: StoredDocument, created: Bool)
  {
    try DocumentValidation.validateCreate(fields)
    return try lockedDocuments { db in
      try db.transaction {
        if let existing = try Self.readDocument(userID, db) { return (existing, false) }
        let time = writeTime()
        let document = try Self.store(
          userID: userID, fields: fields, serverTimestamps: [], previous: nil, time: time, db)
        return (document, true)
      }
    }
  }

  /// Merges top-level fields into the document (creating it when absent): sets `fields`,
  /// removes `removing`, keeps the rest. Server timestamps become the write's time.
  ///
  /// - Returns: the document after the write.
  /// - Throws: as ``createDocumentIfAbsent(userID:fields:)``.
  public func updateDocument(
    userID: String, setting fields: [String: DocumentValue], removing: Set<String>
  ) throws -> StoredDocument {
    try updateDocument(
      userID: userID, setting: fields, removing: removing, allowingArraysInArrays: false)
  }

  /// ``updateDocument(userID:setting:removing:)`` for the emulator's NCMB wire: with
  /// `allowingArraysInArrays` an array directly inside an array is stored, as the NCMB
  /// service stores it (Firestore, and so every other writer, refuses it).
  /// - Throws: as ``updateDocument(userID:setting:removing:)``.
  package func updateDocument(
    userID: String, setting fields: [String: DocumentValue], removing: Set<String>,
    allowingArraysInArrays: Bool
  ) throws -> StoredDocument {
    try DocumentValidation.validateUpdate(
      setting: fields, removing: removing, allowingArraysInArrays: allowingArraysInArrays)
    var setting: [DocumentFieldPath: DocumentValue] = [:]
    for (name, value) in fields { setting[[name]] = value }
    let commit = try writeDocuments(
      [
        .merge(
          userID: userID, setting: setting, removing: removing.sorted().map { [$0] },
          serverTimestamps: [], precondition: .none)
      ], allowingArraysInArrays: allowingArraysInArrays)
    return commit.documents[0]!
  }

  /// Deletes the document of `userID`.
  /// - Returns: `true` when a document was deleted, `false` when there was none.
  /// - Throws: ``UserStoreError/database(message:)``.
  @discardableResult
  public func deleteDocument(userID: String) throws -> Bool {
    try lockedDocuments { db in
      try db.run("DELETE FROM documents WHERE user_id = ?", [.text(userID)]) == 1
    }
  }

  /// Applies `writes` in order, atomically, at one time (Firestore's `documents:commit`):
  /// all of them or, when one fails, none.
  ///
  /// - Returns: the commit time and, per write, the document after it (`nil` after a delete).
  /// - Throws: ``DocumentStoreError`` (a failed precondition, no such account),
  ///   ``UserBackendKit/UserBackendError`` `.invalidInput` for a resulting document
  ///   ``UserBackendKit/DocumentValidation`` refuses (the field named from its top-level
  ///   name), ``UserStoreError/database(message:)``.
  public func writeDocuments(_ writes: [DocumentWrite]) throws -> DocumentCommit {
    try writeDocuments(writes, allowingArraysInArrays: false)
  }

  /// ``writeDocuments(_:)``, accepting an array directly inside an array when
  /// `allowingArraysInArrays` (the NCMB wire's rule).
  private func writeDocuments(_ writes: [DocumentWrite], allowingArraysInArrays: Bool) throws
    -> DocumentCommit
  {
    try lockedDocuments { db in
      try db.transaction {
        let time = writeTime()
        var results: [StoredDocument?] = []
        for write in writes {
          if case .delete(let userID, let precondition) = write {
            try Self.check(precondition, exists: try Self.documentExists(userID, db), userID)
            try db.run("DELETE FROM documents WHERE user_id = ?", [.text(userID)])
            results.append(nil)
            continue
          }
          let previous = try Self.readDocument(write.userID, db)
          try Self.check(write, previous: previous)
          try Self.validateWritten(write, allowingArraysInArrays: allowingArraysInArrays)
          switch write {
          case .delete:
            break
          case .replace(let userID, let fields, let serverTimestamps, _):
            results.append(
              try Self.store(
                userID: userID, fields: fields, serverTimestamps: serverTimestamps,
                previous: previous, time: time, db))
          case .merge(let userID, let setting, let removing, let serverTimestamps, _):
            var fields = previous?.fields ?? [:]
            for path in removing + setting.keys.sorted(by: { $0.lexicographicallyPrecedes($1) })
              + serverTimestamps
            {
              try Self.checkSpelling(path, in: fields)
            }
            for path in removing { Self.remove(path, from: &fields) }
            for (path, value) in setting.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
              Self.set(value, at: path, in: &fields)
            }
            results.append(
              try Self.store(
                userID: userID, fields: fields, serverTimestamps: serverTimestamps,
                previous: previous, time: time, db))
          }
        }
        return DocumentCommit(commitTime: time, documents: results)
      }
    }
  }

  // MARK: - Internals

  /// Runs `body` under the lock like `locked`, but lets ``DocumentStoreError`` and
  /// ``UserBackendKit/UserBackendError`` through unchanged (SQLite errors still become
  /// ``UserStoreError``).
  private func lockedDocuments<T>(_ body: (Database) throws -> T) throws -> T {
    do {
      return try database.withLock { db in try body(db) }
    } catch let error as DocumentStoreError {
      throw error
    } catch let error as UserBackendError {
      throw error
    } catch {
      throw reported(Self.storeError(error))
    }
  }

  /// The store clock's time, rounded to microseconds.
  private func writeTime() -> Date { DocumentTimestamp.rounded(clock.now()) }

  private static func check(_ write: DocumentWrite, previous: StoredDocument?) throws {
    let precondition: DocumentWrite.Precondition
    switch write {
    case .replace(_, _, _, let condition), .merge(_, _, _, _, let condition),
      .delete(_, let condition):
      precondition = condition
    }
    try check(precondition, exists: previous != nil, write.userID)
  }

  private static func check(
    _ precondition: DocumentWrite.Precondition, exists: Bool, _ userID: String
  ) throws {
    switch precondition {
    case .none: break
    case .exists where !exists: throw DocumentStoreError.notFound(userID: userID)
    case .missing where exists: throw DocumentStoreError.alreadyExists(userID: userID)
    default: break
    }
  }

  /// Checks what `write` writes (``UserBackendKit/DocumentValidation``), not the fields a
  /// merge keeps: a replace's whole field set, a merge's set paths (each name on the way
  /// and the value, at its depth) and server timestamp paths.
  /// - Throws: ``UserBackendKit/UserBackendError`` `.invalidInput` naming the path.
  static func validateWritten(_ write: DocumentWrite, allowingArraysInArrays: Bool = false)
    throws
  {
    switch write {
    case .delete:
      return
    case .replace(_, let fields, let serverTimestamps, _):
      var written = fields
      for path in serverTimestamps { set(.serverTimestamp, at: path, in: &written) }
      try DocumentValidation.validateCreate(
        written, allowingArraysInArrays: allowingArraysInArrays)
    case .merge(_, let setting, _, let serverTimestamps, _):
      let paths =
        setting.map { ($0.key, $0.value) }
        + serverTimestamps.map { ($0, DocumentValue.serverTimestamp) }
      for (path, value) in paths.sorted(by: { $0.0.lexicographicallyPrecedes($1.0) }) {
        // The path alone, as a document: its names are checked at their levels and the
        // value at its depth.
        var alone: [String: DocumentValue] = [:]
        set(value, at: path, in: &alone)
        try DocumentValidation.validateCreate(
          alone, allowingArraysInArrays: allowingArraysInArrays)
      }
    }
  }

  /// Refuses a merge path whose name the document holds in other bytes (`é` as U+00E9
  /// written where the document has `e` + U+0301): a Swift dictionary takes them for one
  /// key, so the write would change or remove the stored field under its old bytes, where
  /// Firestore and NCMB (names compared by bytes) would keep two fields.
  /// - Throws: ``UserBackendKit/UserBackendError`` `.invalidInput` naming the written path
  ///   and the stored name.
  static func checkSpelling(_ path: DocumentFieldPath, in fields: [String: DocumentValue])
    throws
  {
    var level = fields
    var shown = "fields"
    for name in path {
      guard let index = level.index(forKey: name) else { return }
      let stored = level[index].key
      shown += "." + name
      guard Array(stored.utf8) == Array(name.utf8) else {
        throw UserBackendError(
          .invalidInput(
            field: shown,
            reason: "the document holds the field \(JSONTextCheck.shown(stored)), the same "
              + "text as \(JSONTextCheck.shown(name)) in other bytes (canonically equivalent "
              + "Unicode); this store cannot keep both apart: name it in the stored bytes "
              + "(also to remove it)"))
      }
      guard case .map(let nested) = level[index].value else { return }
      level = nested
    }
  }

  /// Resolves server timestamps, checks the document's size and writes the row (what the
  /// write names is checked by ``validateWritten(_:)``).
  private static func store(
    userID: String, fields: [String: DocumentValue], serverTimestamps: [DocumentFieldPath],
    previous: StoredDocument?, time: Date, _ db: Database
  ) throws -> StoredDocument {
    var resolved = fields
    for path in serverTimestamps { set(.serverTimestamp, at: path, in: &resolved) }
    resolved = resolved.mapValues { resolve($0, time) }
    try DocumentValidation.validateSize(userID: userID, fields: resolved)
    let document = StoredDocument(
      userID: userID, fields: resolved, createTime: previous?.createTime ?? time,
      updateTime: time)
    let text = try DocumentFieldCoding.encode(resolved)
    guard
      try db.first("SELECT 1 FROM users WHERE id = ?", [.text(userID)], { _ in true }) != nil
    else { throw DocumentStoreError.noSuchAccount(userID: userID) }
    try db.run(
      """
      INSERT INTO documents (user_id, fields, create_time, update_time) VALUES (?, ?, ?, ?)
      ON CONFLICT(user_id) DO UPDATE SET fields = excluded.fields,
        update_time = excluded.update_time
      """,
      [
        .text(userID), .text(text), .integer(micros(document.createTime)),
        .integer(micros(time)),
      ])
    return document
  }

  private static func readDocument(_ userID: String, _ db: Database) throws -> StoredDocument? {
    try namingRow("documents.user_id", userID) { try readDocumentRow(userID, db) }
  }

  private static func readDocumentRow(_ userID: String, _ db: Database) throws
    -> StoredDocument?
  {
    let row = try db.first(
      "SELECT fields, create_time, update_time FROM documents WHERE user_id = ?",
      [.text(userID)]
    ) { row in
      (
        row.text(0) ?? "", try row.microsecondDate(1, "documents.create_time"),
        try row.microsecondDate(2, "documents.update_time")
      )
    }
    guard let row else { return nil }
    return StoredDocument(
      userID: userID, fields: try DocumentFieldCoding.decode(row.0), createTime: row.1,
      updateTime: row.2)
  }

  /// Whether `userID` has a document, read without decoding it: a delete needs no more,
  /// so a damaged document can always be deleted (and written anew).
  private static func documentExists(_ userID: String, _ db: Database) throws -> Bool {
    try db.first("SELECT 1 FROM documents WHERE user_id = ?", [.text(userID)]) { _ in true }
      ?? false
  }

  private static func micros(_ date: Date) -> Int64 {
    DocumentTimestamp.microseconds(of: date) ?? 0
  }

  private static func resolve(_ value: DocumentValue, _ time: Date) -> DocumentValue {
    switch value {
    case .serverTimestamp: .timestamp(time)
    case .map(let fields): .map(fields.mapValues { resolve($0, time) })
    case .array(let values): .array(values.map { resolve($0, time) })
    default: value
    }
  }

  /// Sets `value` at `path`, making each parent a map (replacing a non-map value).
  static func set(
    _ value: DocumentValue, at path: DocumentFieldPath, in fields: inout [String: DocumentValue]
  ) {
    guard let head = path.first else { return }
    guard path.count > 1 else {
      fields[head] = value
      return
    }
    var nested: [String: DocumentValue] = [:]
    if case .map(let existing) = fields[head] { nested = existing }
    set(value, at: Array(path.dropFirst()), in: &nested)
    fields[head] = .map(nested)
  }

  /// Removes the value at `path`, when there is one.
  static func remove(_ path: DocumentFieldPath, from fields: inout [String: DocumentValue]) {
    guard let head = path.first else { return }
    guard path.count > 1 else {
      fields[head] = nil
      return
    }
    guard case .map(var nested) = fields[head] else { return }
    remove(Array(path.dropFirst()), from: &nested)
    fields[head] = .map(nested)
  }
}
