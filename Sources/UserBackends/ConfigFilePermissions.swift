import Foundation
import UserBackendKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Who may change or read the config file (`--config FILE`, `BAAS_CONFIG`). It decides
/// where passwords and keys are sent (`backend`, `ncmb.baseURL`, `firebase.emulatorHost`,
/// `home`) and may hold the Firebase API key and the NCMB application and client keys.
/// Decisions, each a refusal naming the option and the file, never a value:
///
/// - a file of another user is refused, except root's (a system-wide file; root can
///   change what `baas` runs anyway);
/// - a file group or others may write in is refused, keys or not: they could send the
///   next sign-in's password elsewhere;
/// - a file group or others have any bit on is refused when it sets a key
///   (``secretKeys``); without keys it may be shared (a team's `{"backend": "ncmb"}`).
///
/// Judged on the open file (`fstat`), so what is checked is what is read. The directory
/// is not checked: the file is read once and never written.
enum ConfigFilePermissions {
  /// The config keys that hold secrets.
  static let secretKeys = ["firebase.apiKey", "ncmb.applicationKey", "ncmb.clientKey"]

  /// The setting errors name: `"config file <path> (--config)"`.
  static func setting(_ path: String, option: String?) -> String {
    "config file \(path)" + (option.map { " (\($0))" } ?? "")
  }

  /// Refuses a file of another user (not root) or one others may write in.
  /// - Throws: ``BackendConfigurationError`` `.invalidSetting`.
  static func checkBeforeReading(_ status: stat, path: String, option: String?) throws {
    if status.st_uid != 0 {
      do {
        try LocalFileTrust.checkOwner(status, path: path)
      } catch {
        throw BackendConfigurationError(
          .invalidSetting, setting: setting(path, option: option),
          reason: "it \(error.reason); it decides where passwords and keys are sent")
      }
    }
    let mode = status.st_mode & 0o777
    guard mode & 0o022 == 0 else {
      throw BackendConfigurationError(
        .invalidSetting, setting: setting(path, option: option),
        reason: "it is writable by other users (mode 0\(String(mode, radix: 8))), and it "
          + "decides where passwords and keys are sent; make it private: chmod 600 \(path)")
    }
  }

  /// Refuses a file others may read that sets one of ``secretKeys``.
  /// - Throws: ``BackendConfigurationError`` `.invalidSetting` naming the keys set.
  static func checkSecrets(
    of configuration: BackendConfiguration, status: stat, path: String, option: String?
  ) throws {
    let mode = status.st_mode & 0o777
    guard mode & 0o077 != 0 else { return }
    let values = [
      configuration.firebase.apiKey, configuration.ncmb.applicationKey,
      configuration.ncmb.clientKey,
    ]
    let set = zip(secretKeys, values).filter { $0.1 != nil }.map(\.0)
    guard !set.isEmpty else { return }
    throw BackendConfigurationError(
      .invalidSetting, setting: setting(path, option: option),
      reason: "it is readable by other users (mode 0\(String(mode, radix: 8))) and sets "
        + "\(set.joined(separator: ", ")) (secrets); make it private: chmod 600 \(path)")
  }
}
