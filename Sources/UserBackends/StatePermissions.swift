import Foundation
import UserBackendKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Who else may touch the state directory and the files `baas` keeps in it. One rule per
/// kind, each a refusal (exit 2, naming `BAAS_HOME` and the path), never a silent repair:
/// a wider mode was set by hand or by a copy, and what it exposed may have been read or
/// replaced already; repairing it quietly would hide that. Decisions:
///
/// - the state directory: refused when group or others may write in it without the
///   sticky bit (anyone could delete or replace the session file or the fake's database).
///   Readable is fine: every file in it is owner-only.
/// - the session file (`*.session.json`, tokens): refused with any group or other bit
///   (``UserBackendKit/FileSessionStore``'s rule, as ssh refuses a private key).
/// - the fake's database `fake.sqlite` and its `-wal` and `-shm` files (password hashes,
///   out-of-band and SMS codes, refresh-token hashes): the same rule as the session file.
/// - lock files (`*.session.lock`): not checked. They hold nothing; replacing one needs
///   write access to the directory, which the first rule refuses.
///
/// `baas` creates all of these owner-only: the directory 0700, the files 0600.
public enum StatePermissions {
  /// Refuses a state directory that others may write in (see the type).
  /// - Throws: ``BackendConfigurationError`` `.invalidSetting` naming `BAAS_HOME`, with
  ///   the path and the mode; nothing when the directory does not exist (yet).
  public static func checkDirectory(_ directory: URL) throws {
    var status = stat()
    guard stat(directory.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return }
    let mode = status.st_mode & 0o7777
    guard mode & 0o022 != 0, mode & 0o1000 == 0 else { return }
    throw BackendConfigurationError(
      .invalidSetting, setting: BackendConfigurationError.stateDirectorySetting,
      reason:
        "the state directory \(directory.path) is writable by other users (mode "
        + "0\(String(mode, radix: 8)), no sticky bit): anyone could replace its session "
        + "files or the fake's database; make it private (chmod 700) or choose another")
  }

  /// Refuses the fake's database `path` (and its `-wal`, `-shm` files) when group or
  /// others have any permission bit (see the type); missing files are fine.
  /// - Throws: ``BackendConfigurationError`` `.invalidSetting` naming `BAAS_HOME`, with
  ///   the path and the mode.
  public static func checkDatabase(_ path: String) throws {
    for file in [path, path + "-wal", path + "-shm"] {
      var status = stat()
      guard lstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
      let mode = status.st_mode & 0o777
      guard mode & 0o077 != 0 else { continue }
      throw BackendConfigurationError.stateFile(
        "use", path: "the fake's database \(file)",
        problem:
          "it is readable or writable by other users (mode 0\(String(mode, radix: 8))) and "
          + "holds password hashes and codes; make it private (chmod 600) or remove it")
    }
  }
}
