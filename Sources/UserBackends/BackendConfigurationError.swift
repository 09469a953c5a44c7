import UserBackendKit

/// Why a ``BackendConfiguration`` could not be loaded or is unusable.
///
/// The text names the setting (the environment variable and the config-file key) and what
/// is wrong with it; it never contains a setting's value (the one exception: an unknown
/// backend name that looks like a name, see
/// ``BackendConfiguration/backendKind(named:setting:)``), so an API key or client key that
/// was put in the wrong place does not leak into a terminal or a log. Local state problems
/// name the state directory's file by its path.
public struct BackendConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What kind of problem it is.
  public enum Kind: String, Sendable, Hashable {
    /// A setting the selected backend needs is not set.
    case missingSetting
    /// A setting is set but unusable (bad URL, bad `host:port`, empty).
    case invalidSetting
    /// `BAAS_BACKEND`, `--backend` or the file's `backend` names no known backend.
    case unknownBackend
    /// The config file cannot be read or is not the expected JSON shape.
    case unreadableFile
  }

  /// The kind of problem.
  public var kind: Kind
  /// The setting involved, e.g. `"FIREBASE_API_KEY (firebase.apiKey)"`, or the file path.
  public var setting: String
  /// What is wrong and how to fix it. Never contains a secret setting's value.
  public var reason: String

  /// An error about `setting`.
  public init(_ kind: Kind, setting: String, reason: String) {
    self.kind = kind
    self.setting = setting
    self.reason = reason
  }

  /// `"<setting>: <reason>"`.
  public var description: String { "\(setting): \(reason)" }

  /// The same problem as a portable ``UserBackendError`` with code
  /// `.misconfigured(setting:reason:)`, for `--json` output.
  public var userBackendError: UserBackendError {
    UserBackendError(.misconfigured(setting: setting, reason: reason), message: description)
  }
}
