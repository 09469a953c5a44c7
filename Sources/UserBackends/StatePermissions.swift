import Foundation
import UserBackendKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Who else may touch the state directory and the files `baas` keeps in it, and the
/// account database of `baas emulator --data`. One rule per kind, each a refusal (exit 2,
/// naming the setting and the path), never a silent repair: a wider mode or another
/// owner was set by hand, by a copy or by another user, and what it exposed may have been
/// read or replaced already; repairing it quietly would hide that. Decisions:
///
/// - the state directory: refused when group or others may write in it, with or without
///   the sticky bit (in a shared directory such as `/tmp`, mode 1777, another user can
///   create the lock file, the database or the session file before we do and lock the
///   owner out), or when it belongs to another user. Readable is fine: every file in it
///   is owner-only. The fix is a directory of one's own, mode 0700.
/// - every file kept in it (session file, lock files, `fake.sqlite` and its `-wal`,
///   `-shm` and `-journal`): refused when it belongs to another user
///   (``UserBackendKit/LocalFileTrust``).
/// - the session file (`*.session.json`, tokens): refused with any group or other bit
///   (``UserBackendKit/FileSessionStore``'s rule, as ssh refuses a private key).
/// - the fake's database and its `-wal` and `-shm` files (password hashes, out-of-band
///   and SMS codes, refresh-token hashes): the same rule as the session file. Messages
///   suggest `chmod 600 <file>`, never removing it: removing a `-wal` file loses
///   committed data.
/// - lock files (`*.session.lock`): no mode rule. They hold nothing.
///
/// Checking a file and then opening it is sound only because the directory is private:
/// nobody else can swap a file in between.
///
/// `baas` creates all of these owner-only: the directory 0700, the files 0600.
public enum StatePermissions {
  /// Refuses a state directory that belongs to another user or that group or others may
  /// write in, sticky bit or not (see the type); nothing when it does not exist (yet).
  /// - Throws: ``BackendConfigurationError`` `.invalidSetting` naming `BAAS_HOME`, with
  ///   the path and the mode or owner.
  public static func checkDirectory(_ directory: URL) throws {
    try checkDirectory(directory.path, setting: BackendConfigurationError.stateDirectorySetting)
  }

  /// ``checkDirectory(_:)`` of `path`, naming `setting` and `what` the directory is.
  static func checkDirectory(_ path: String, setting: String, what: String = "the state directory")
    throws
  {
    do {
      try LocalFileTrust.checkDirectory(path)
    } catch let error as LocalFileTrust.SharedDirectory {
      throw BackendConfigurationError(
        .invalidSetting, setting: setting, reason: "\(what) \(error.description)")
    } catch let error as LocalFileTrust.ForeignOwner {
      throw BackendConfigurationError(
        .invalidSetting, setting: setting, reason: "\(what) \(error.description)")
    }
  }

  /// Refuses an account database `path` (and its `-wal`, `-shm` and `-journal` files) of
  /// another user, or one group or others have any permission bit on (see the type);
  /// missing files are fine. Symbolic links are judged by what they point to (what SQLite
  /// opens).
  /// - Parameters:
  ///   - setting: the setting named (default `BAAS_HOME`; `baas emulator` passes
  ///     `--data`).
  ///   - name: what the file is, for the message (default `"the fake's database"`).
  /// - Throws: ``BackendConfigurationError`` `.invalidSetting` naming `setting`, with the
  ///   file, its owner or mode, and the `chmod` that fixes the mode.
  public static func checkDatabase(
    _ path: String, setting: String = BackendConfigurationError.stateDirectorySetting,
    name: String = "the fake's database"
  ) throws {
    for file in [path, path + "-wal", path + "-shm", path + "-journal"] {
      var status = stat()
      guard stat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
      do {
        try LocalFileTrust.checkOwner(status, path: file)
      } catch {
        throw BackendConfigurationError(
          .invalidSetting, setting: setting,
          reason: "cannot use \(name) \(file): it \(error.reason)")
      }
      let mode = status.st_mode & 0o777
      guard mode & 0o077 != 0 else { continue }
      throw BackendConfigurationError(
        .invalidSetting, setting: setting,
        reason:
          "cannot use \(name) \(file): it is readable or writable by other users (mode "
          + "0\(String(mode, radix: 8))) and holds password hashes and codes; make it "
          + "private: chmod 600 \(file)")
    }
  }

  /// The checks of `baas emulator --data FILE`, whose file holds what the fake's database
  /// holds: its directory as the state directory (others could plant a `-wal` or a
  /// journal in it), the file and its `-wal`, `-shm` and `-journal` as the fake's
  /// database. `":memory:"` passes.
  /// - Parameter setting: the option, `"--data"`.
  /// - Throws: ``BackendConfigurationError`` `.invalidSetting` naming `setting`.
  public static func checkDataFile(_ path: String, setting: String) throws {
    guard path != ":memory:" else { return }
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
    try checkDirectory(directory, setting: setting, what: "the data file's directory")
    try checkDatabase(path, setting: setting, name: "the data file")
  }
}
