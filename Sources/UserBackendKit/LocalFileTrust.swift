import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whose the files are that a process keeps for its user (the session file and its lock
/// files, the fake's database and its `-wal` and `-shm`, an emulator's `--data` file),
/// and who may write in their directory. Two rules, each a refusal naming the path, never
/// a repair:
///
/// - a file must belong to the user this process runs as (`geteuid()`): one of another
///   user was not made by us, and using it lets that user lock us out (a lock file held
///   for ever, a database we cannot write) or hand us state (a session, accounts);
/// - the directory must belong to that user too, and neither group nor others may write
///   in it, with or without the sticky bit: in a shared directory such as `/tmp` (mode
///   1777) another user can create each of those files before we do.
///
/// Both compare with an injectable user ID (`user`, default `geteuid()`), so tests can
/// show the refusal without root; the rule itself has no switch.
package enum LocalFileTrust {
  /// The user this process acts as: `geteuid()`.
  package static var currentUser: uid_t { geteuid() }

  /// A file or directory that belongs to another user.
  package struct ForeignOwner: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path.
    package var path: String
    /// Its owner's user ID.
    package var owner: uid_t
    /// The user this process runs as.
    package var user: uid_t

    /// `"belongs to another user (uid 1001; you are uid 1000), so it is not used: if you
    /// trust it, make it yours (sudo chown 1000 <path>)"`. Never suggests removing it: it
    /// may be a database whose loss loses data.
    package var reason: String {
      "belongs to another user (uid \(owner); you are uid \(user)), so it is not used: if "
        + "you trust it, make it yours (sudo chown \(user) \(path))"
    }

    /// `"<path> <reason>"`.
    package var description: String { "\(path) \(reason)" }
  }

  /// A directory group or others may write in (sticky bit or not).
  package struct SharedDirectory: Error, Sendable, Hashable, CustomStringConvertible {
    /// The directory.
    package var path: String
    /// Its permission bits, e.g. `0o1777`.
    package var mode: mode_t

    /// `"is writable by other users (mode 01777): they could create or replace the files
    /// kept in it before you do, even with the sticky bit; use a directory of your own
    /// with mode 0700 (chmod 700 <path>, or another directory)"`.
    package var reason: String {
      "is writable by other users (mode 0\(String(mode, radix: 8))): they could create the "
        + "files kept in it before you do, sticky bit or not; use a directory of your own "
        + "with mode 0700 (chmod 700 \(path), or choose another)"
    }

    /// `"<path> <reason>"`.
    package var description: String { "\(path) \(reason)" }
  }

  /// Refuses `status` (of the file at `path`, from `stat`, `lstat` or `fstat`) when the
  /// file belongs to another user than `user`.
  /// - Throws: ``ForeignOwner``.
  package static func checkOwner(_ status: stat, path: String, user: uid_t = currentUser)
    throws(ForeignOwner)
  {
    guard status.st_uid == user else {
      throw ForeignOwner(path: path, owner: status.st_uid, user: user)
    }
  }

  /// Refuses the directory at `path` when it belongs to another user than `user`, or
  /// group or others may write in it; a path that does not exist (yet) or is not a
  /// directory passes (whoever creates or opens it reports that).
  /// - Throws: ``ForeignOwner``, ``SharedDirectory``.
  package static func checkDirectory(_ path: String, user: uid_t = currentUser) throws {
    var status = stat()
    guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return }
    try checkOwner(status, path: path, user: user)
    let mode = status.st_mode & 0o7777
    if mode & 0o022 != 0 { throw SharedDirectory(path: path, mode: mode) }
  }

  /// Refuses the file at `path` (after symbolic links: what an open would reach) when it
  /// exists, is a regular file and belongs to another user than `user`.
  /// - Throws: ``ForeignOwner``.
  package static func checkFile(_ path: String, user: uid_t = currentUser) throws(ForeignOwner) {
    var status = stat()
    guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return }
    try checkOwner(status, path: path, user: user)
  }
}
