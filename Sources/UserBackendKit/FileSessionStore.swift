import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A ``SessionStore`` in a JSON file, readable only by its owner (mode 0600), replaced
/// atomically (write a temporary file in the same directory, `fsync`, `rename`), so a
/// crash or a failed write never leaves a half-written session. A temporary copy left by
/// a writer that was killed before its rename (tokens inside, mode 0600) is removed by the
/// next ``save(_:)`` or ``clear()`` (see `removeStaleTemporaryFiles()`).
///
/// One file per namespace: `<directory>/<namespace>.session.json`, where the namespace
/// names the backend and project (`firebase-my-project`), so switching backends never
/// mixes sessions. A file that does not decode reads as signed out and the problem is
/// reported through `diagnostics`; it is never a crash.
///
/// Token refreshes of every process on the same file are serialised through an advisory
/// lock on `<directory>/<namespace>.session.lock` (``withExclusiveAccess(_:)``), and
/// read-modify-write updates through one on `<namespace>.session.update.lock`
/// (``withExclusiveUpdate(_:)``); both are created on first use and never deleted.
///
/// Every operation refuses a directory that belongs to another user or that group or
/// others may write in (sticky bit or not: in `/tmp` another user could create the lock
/// or session file first and lock the owner out), and a session or lock file of another
/// user (``LocalFileTrust``); the error names the path.
public struct FileSessionStore: SessionStore {
  /// The session file.
  public let fileURL: URL
  /// The setting that chose the directory, named by `misconfigured` errors.
  public let setting: String
  private let diagnostics: @Sendable (String) -> Void

  /// A store for `namespace` in `directory` (created with mode 0700 when missing).
  ///
  /// - Parameters:
  ///   - directory: the state directory (`BAAS_HOME`).
  ///   - namespace: backend and project, e.g. `"fake"`, `"firebase-demo-project"`;
  ///     characters outside `[A-Za-z0-9._-]` become `_`.
  ///   - setting: the setting that chose `directory`, for error messages (default
  ///     `"sessionStore"`; the `baas` tool passes `BAAS_HOME`).
  ///   - diagnostics: receives one line per recoverable problem (default: standard error).
  public init(
    directory: URL,
    namespace: String,
    setting: String = "sessionStore",
    diagnostics: @escaping @Sendable (String) -> Void = {
      FileSessionStore.printToStandardError($0)
    }
  ) {
    let safe = String(
      namespace.map {
        $0.isLetter && $0.isASCII || $0.isNumber && $0.isASCII || "._-".contains($0) ? $0 : "_"
      }
    )
    self.fileURL = directory.appendingPathComponent("\(safe).session.json")
    self.setting = setting
    self.diagnostics = diagnostics
  }

  /// The lock file: the session file's name with `.lock` for `.json`.
  public var lockURL: URL {
    fileURL.deletingPathExtension().appendingPathExtension("lock")
  }

  /// The update lock file: the session file's name with `.update.lock` for `.json`.
  public var updateLockURL: URL {
    fileURL.deletingPathExtension().appendingPathExtension("update.lock")
  }

  /// `"the session file <path>"`.
  public var location: String { "the session file \(fileURL.path)" }

  /// Runs `body` holding the advisory lock on ``lockURL`` (creating the directory and the
  /// lock file when missing); waiting for another holder suspends the task.
  /// - Throws: `POSIXFileError` (`"lock"`) or a Foundation file error when the lock
  ///   cannot be taken; `CancellationError`; what `body` throws.
  public func withExclusiveAccess<T: Sendable>(_ body: () async throws -> T) async throws -> T {
    try checkDirectory()
    let lock = try await FileLock(path: lockURL.path)
    defer { lock.release() }
    return try await body()
  }

  /// Runs `body` holding the advisory lock on ``updateLockURL`` (held only for one
  /// read-modify-write, never across a network call).
  /// - Throws: as ``withExclusiveAccess(_:)``.
  public func withExclusiveUpdate<T: Sendable>(_ body: () async throws -> T) async throws -> T {
    try checkDirectory()
    let lock = try await FileLock(path: updateLockURL.path)
    defer { lock.release() }
    return try await body()
  }

  /// The largest session file read, in bytes (``BoundedFileRead/smallFileLimit``, 1 MiB:
  /// a session is a few kilobytes).
  static let maximumFileSize = BoundedFileRead.smallFileLimit

  /// Reads the file; a missing file is ``PersistedAuthState/empty``; one that is not valid
  /// JSON of the expected shape is `.empty` plus a diagnostic naming the file (never its
  /// contents).
  ///
  /// Only a regular file is read, without blocking and at most ``maximumFileSize`` bytes
  /// (``BoundedFileRead``): a FIFO, a device or a directory is refused. Decisions:
  /// - a symbolic link is refused, not followed (`O_NOFOLLOW`): a sign-out would remove
  ///   only the link and leave the tokens in the file it points to, and a save replaces
  ///   the link with a regular file, so a linked session was never kept in sync anyway.
  ///   The target is not removed either: it is outside the state directory and may be
  ///   anything; the error names the link so its owner can look.
  /// - a file with any group or other permission bit (0644 set by hand, a copy) is
  ///   refused, as ssh refuses such a private key, rather than repaired to 0600: its
  ///   tokens may have been read already, and a silent repair would hide that. A sign-out
  ///   or a new sign-in replaces it (``loadForReplacement()``).
  /// - a file of another user is refused (``LocalFileTrust/ForeignOwner``), and a sign-out
  ///   or sign-in does not replace it either: it was not made by this user.
  /// - Throws: ``BoundedFileRead/NotRegularFile``, ``BoundedFileRead/TooLarge``,
  ///   ``BoundedFileRead/SymbolicLink``, ``NotPrivate``, ``LocalFileTrust/ForeignOwner``,
  ///   ``LocalFileTrust/SharedDirectory`` or ``BoundedFileRead/Failure`` (permission
  ///   denied, …).
  public func load() async throws -> PersistedAuthState {
    guard let data = try readData() else { return .empty }
    do {
      return try Self.decode(data)
    } catch {
      diagnostics(
        "warning: the session file \(fileURL.path) is unreadable (\(Self.describe(error))); "
          + "treating it as signed out")
      return .empty
    }
  }

  /// The stored state for a sign-in or sign-out, which replace the session: a file that
  /// is too large, not valid JSON of the expected shape or not private (see ``load()``)
  /// reads as `.empty`, with a diagnostic naming the file and the reason (never its
  /// contents), so the write that follows replaces or removes it. A symbolic link, a
  /// FIFO, a directory or an unreadable file is still an error: removing or replacing
  /// those could lose something that is not a session.
  /// - Throws: as ``load()``, except ``BoundedFileRead/TooLarge`` and ``NotPrivate``.
  public func loadForReplacement() async throws -> (
    state: PersistedAuthState, discarded: String?
  ) {
    let reason: String
    do {
      guard let data = try readData() else { return (.empty, nil) }
      do {
        return (try Self.decode(data), nil)
      } catch {
        reason = "it is unreadable (\(Self.describe(error)))"
      }
    } catch let error as BoundedFileRead.TooLarge {
      reason = "it is larger than \(error.limit) bytes"
    } catch let error as NotPrivate {
      reason = "it " + error.reason
    }
    diagnostics("warning: discarding the session file \(fileURL.path): \(reason)")
    return (.empty, reason)
  }

  /// A session file with group or other permission bits (see ``load()``).
  package struct NotPrivate: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's path.
    package var path: String
    /// The permission bits, e.g. `0o644`.
    package var mode: mode_t
    /// `"is readable or writable by other users (mode 0644)"`.
    package var reason: String {
      "is readable or writable by other users (mode 0\(String(mode, radix: 8)))"
    }
    /// `"<path> <reason>"`.
    package var description: String { "\(path) \(reason)" }
  }

  /// Refuses the files of another user, and a directory of another user or one others may
  /// write in, before anything is written or locked: a sign-in checks this before it asks
  /// the server, so a session that could not be kept is never created.
  /// - Throws: ``LocalFileTrust/ForeignOwner`` (the directory, the session file or a lock
  ///   file), ``LocalFileTrust/SharedDirectory``.
  package func checkFiles() throws {
    try checkDirectory()
    for url in [fileURL, lockURL, updateLockURL] { try LocalFileTrust.checkFile(url.path) }
  }

  /// ``LocalFileTrust/checkDirectory(_:user:)`` of the session file's directory.
  private func checkDirectory() throws {
    try LocalFileTrust.checkDirectory(fileURL.deletingLastPathComponent().path)
  }

  /// The file's bytes, or `nil` when there is no file.
  private func readData() throws -> Data? {
    try checkDirectory()
    do {
      return try BoundedFileRead.data(
        contentsOf: fileURL, limit: Self.maximumFileSize, followSymbolicLinks: false
      ) { status in
        // Another user's file first: it is refused even when it is also not private.
        try LocalFileTrust.checkOwner(status, path: fileURL.path)
        let permissions = status.st_mode & 0o777
        if permissions & 0o077 != 0 { throw NotPrivate(path: fileURL.path, mode: permissions) }
      }
    } catch let error as BoundedFileRead.Failure where error.code == ENOENT {
      return nil
    }
  }

  /// The file's state, its times kept to what can be shown and compared
  /// (``PersistedAuthState/keepingTimesInRange()``).
  private static func decode(_ data: Data) throws -> PersistedAuthState {
    try JSONDecoder.sessionStore.decode(PersistedAuthState.self, from: data)
      .keepingTimesInRange()
  }

  /// A state whose encoding is larger than ``FileSessionStore/maximumFileSize``, refused
  /// by ``FileSessionStore/save(_:)``: the store never writes a file it would refuse to
  /// read. Only server-sent data can make a session that large (every value the client
  /// sends is limited far below), so ``SessionEngine`` reports it as `.malformedResponse`.
  package struct StateTooLarge: Error, Sendable, Hashable {
    /// The encoded size in bytes.
    package var size: Int
    /// The limit in bytes.
    package var limit: Int
  }

  /// Writes the state atomically with mode 0600.
  /// - Throws: ``StateTooLarge`` when the encoded state is larger than
  ///   ``maximumFileSize`` (what ``load()`` reads), before touching anything; the I/O
  ///   error; the previous file is then untouched.
  public func save(_ state: PersistedAuthState) async throws {
    let data = try JSONEncoder.sessionStore.encode(state)
    guard data.count <= Self.maximumFileSize else {
      throw StateTooLarge(size: data.count, limit: Self.maximumFileSize)
    }
    let directory = fileURL.deletingLastPathComponent()
    try checkDirectory()
    try LocalFileTrust.checkFile(fileURL.path)
    try FileManager.default.createDirectory(
      at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    removeStaleTemporaryFiles()
    let temporary = directory.appendingPathComponent(
      "\(temporaryPrefix)\(getpid()).\(UUID().uuidString).tmp")
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    guard descriptor >= 0 else { throw POSIXFileError(operation: "create", path: temporary.path) }
    var ok = false
    defer {
      if !ok { unlink(temporary.path) }
    }
    let written = data.withUnsafeBytes { buffer -> Int in
      var offset = 0
      while offset < buffer.count {
        let n = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if n <= 0 { return -1 }
        offset += n
      }
      return offset
    }
    let synced = fsync(descriptor) == 0
    close(descriptor)
    guard written == data.count, synced else {
      throw POSIXFileError(operation: "write", path: temporary.path)
    }
    guard rename(temporary.path, fileURL.path) == 0 else {
      throw POSIXFileError(operation: "rename", path: fileURL.path)
    }
    ok = true
  }

  /// Deletes the file (and temporary files left by writers that died); a missing file is
  /// not an error.
  public func clear() async throws {
    try checkDirectory()
    try LocalFileTrust.checkFile(fileURL.path)
    removeStaleTemporaryFiles()
    if unlink(fileURL.path) != 0 && errno != ENOENT {
      throw POSIXFileError(operation: "remove", path: fileURL.path)
    }
  }

  /// Writes a line to standard error.
  public static func printToStandardError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }

  private static func describe(_ error: any Error) -> String {
    if case DecodingError.dataCorrupted = error { return "not valid JSON" }
    if error is DecodingError { return "unexpected shape" }
    return "read error"
  }
}

/// A failed file-system call, with the operation, path and `errno` text.
package struct POSIXFileError: Error, CustomStringConvertible {
  /// What was attempted: `"create"`, `"write"`, `"rename"`, `"remove"`, `"lock"`.
  package let operation: String
  /// The file involved.
  package let path: String
  /// `errno` at the time of the failure.
  package let code: Int32

  init(operation: String, path: String, code: Int32 = errno) {
    self.operation = operation
    self.path = path
    self.code = code
  }

  /// `"<operation> <path>: <strerror>"`.
  package var description: String {
    "\(operation) \(path): \(String(cString: strerror(code)))"
  }
}

extension JSONEncoder {
  static var sessionStore: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
    encoder.dateEncodingStrategy = .secondsSince1970
    return encoder
  }
}

extension JSONDecoder {
  static var sessionStore: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    return decoder
  }
}
