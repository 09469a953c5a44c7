import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An advisory exclusive lock on a file (`flock`), shared by every process and every open
/// of the file: the kernel drops it when its holder closes the file or exits, so a
/// crashed holder never leaves it stuck. Taken with `LOCK_NB` in a loop that sleeps
/// between tries (1 ms doubling to 50 ms), so a waiting task suspends rather than blocking
/// a thread of the cooperative pool.
struct FileLock {
  private let descriptor: Int32

  /// Opens (creating with mode 0600, its directory with 0700) the lock file and waits
  /// until the lock is ours. A lock file of another user is refused, not locked: whoever
  /// made it could hold it for ever (``LocalFileTrust``).
  /// - Throws: `POSIXFileError` (`"lock"`) when the file cannot be opened or locked;
  ///   ``LocalFileTrust/ForeignOwner`` when it belongs to another user;
  ///   `CancellationError` when the task is cancelled while waiting.
  init(path: String) async throws {
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
    try FileManager.default.createDirectory(
      at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    // `O_NOFOLLOW`: a link planted at the lock path would have us create (or lock) a file
    // elsewhere; it is refused, as the session file itself refuses links.
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard descriptor >= 0 else { throw POSIXFileError(operation: "lock", path: path) }
    // Judged on the open descriptor: what is checked is what gets locked.
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      let failure = POSIXFileError(operation: "lock", path: path)
      close(descriptor)
      throw failure
    }
    do {
      try LocalFileTrust.checkOwner(status, path: path)
    } catch {
      close(descriptor)
      throw error
    }
    var delay: UInt64 = 1_000_000
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      let failure = POSIXFileError(operation: "lock", path: path)
      guard failure.code == EWOULDBLOCK || failure.code == EINTR else {
        close(descriptor)
        throw failure
      }
      do {
        try await Task.sleep(nanoseconds: delay)
      } catch {
        close(descriptor)
        throw error
      }
      delay = min(delay * 2, 50_000_000)
    }
    self.descriptor = descriptor
  }

  /// Releases the lock (closing the file releases it). Call once.
  func release() { close(descriptor) }
}
