import AccountDatabase
import FakeUserBackend
import Foundation
import UserBackendKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension BackendConfigurationError {
  /// The state directory's setting, `BAAS_HOME (config key home)`, that local state
  /// problems name.
  public static let stateDirectorySetting = BackendConfiguration.settingName(
    ConfigurationVariable.home, "home")

  /// A problem with a file in the state directory (a session file, the fake's database):
  /// `.invalidSetting` naming ``stateDirectorySetting``, with the reason
  /// `"cannot <action> <path>: <problem>"`, e.g. `"cannot write the session file
  /// /home/u/.local/state/baas/fake.session.json: Permission denied"`. Paths are not
  /// secrets; file contents never appear.
  public static func stateFile(_ action: String, path: String, problem: String)
    -> BackendConfigurationError
  {
    BackendConfigurationError(
      .invalidSetting, setting: stateDirectorySetting,
      reason: "cannot \(action) \(path): \(problem)")
  }

  /// `error` as a local state problem, when it is one: a ``UserBackendKit/POSIXFileError``,
  /// a `BoundedFileRead` failure (a file that is not a regular file, or cannot be opened),
  /// a file or directory of another user or a directory others may write in
  /// (``UserBackendKit/LocalFileTrust``), a Foundation file error (`CocoaError` with a
  /// file path), the fake store's
  /// `UserStoreError.database`, a `UserStoreFileError` (a newer, foreign or non-SQLite
  /// database file), or a `misconfigured` ``UserBackendKit/UserBackendError``
  /// naming ``stateDirectorySetting`` (a session file failure, as the session engine
  /// reports it); `nil` for anything else.
  ///
  /// - Parameters:
  ///   - file: what the file is, for the message (`"the session file"`); `nil` names the
  ///     file by its path only.
  ///   - action: what was being done (`"read"`, `"write"`).
  ///   - path: the file, when the error does not carry its own path.
  public static func localState(
    _ error: any Error, file: String? = nil, action: String = "use", path: String? = nil
  ) -> BackendConfigurationError? {
    func subject(_ errorPath: String?) -> String {
      let named = path ?? errorPath ?? "a file in the state directory"
      return file.map { "\($0) \(named)" } ?? named
    }
    switch error {
    case let error as BackendConfigurationError:
      return error
    case let error as UserBackendError:
      // A session store failure, mapped by the session engine, of a store in the state
      // directory (see `UserBackends.sessionStore(for:)`).
      guard case .misconfigured(let setting, let reason) = error.code,
        setting == stateDirectorySetting
      else { return nil }
      return BackendConfigurationError(.invalidSetting, setting: setting, reason: reason)
    case let error as LocalFileTrust.ForeignOwner:
      return stateFile(action, path: subject(error.path), problem: "it " + error.reason)
    case let error as LocalFileTrust.SharedDirectory:
      return BackendConfigurationError(
        .invalidSetting, setting: stateDirectorySetting,
        reason: "the directory " + error.description)
    case let error as BoundedFileRead.NotRegularFile:
      return stateFile(action, path: subject(error.path), problem: "it " + error.reason)
    case let error as BoundedFileRead.Failure:
      return stateFile(action, path: subject(error.path), problem: error.reason)
    case let error as POSIXFileError:
      return stateFile(
        action, path: subject(error.path), problem: String(cString: strerror(error.code)))
    case UserStoreError.database(let message):
      return stateFile(action, path: subject(nil), problem: message)
    case let error as UserStoreFileError:
      return stateFile(action, path: subject(error.path), problem: error.reason)
    case let error as CocoaError where error.isFileError:
      return stateFile(action, path: subject(error.filePath), problem: fileProblem(error))
    default:
      return nil
    }
  }

  /// The `strerror` text of a Foundation file error's underlying POSIX error, else a short
  /// description of its code.
  static func fileProblem(_ error: CocoaError) -> String {
    let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey]
    if let posix = underlying as? POSIXError {
      return String(cString: strerror(posix.code.rawValue))
    }
    if let underlying = underlying as? NSError, underlying.domain == NSPOSIXErrorDomain {
      return String(cString: strerror(Int32(underlying.code)))
    }
    switch error.code {
    case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
    case .fileWriteOutOfSpace: return "no space left on the device"
    case .fileWriteVolumeReadOnly: return "read-only file system"
    case .fileReadNoSuchFile, .fileNoSuchFile: return "no such file"
    default: return "file error \(error.code.rawValue)"
    }
  }
}
