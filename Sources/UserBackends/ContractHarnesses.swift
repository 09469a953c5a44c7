import Foundation
import UserBackendContracts

/// The registry of contract harnesses `baas verify` and the contract tests run: one place
/// that maps a harness name to a ``UserBackendContracts/ContractHarness``.
///
/// Offline harnesses (no network, no credentials) are the defaults. To add one (emulator,
/// replay), add its name to ``offlineDefaultNames`` and a case to ``named(_:options:)``.
public enum ContractHarnesses {
  /// Where harnesses find their inputs.
  public struct Options: Sendable, Hashable {
    /// The directory of recorded cassettes, `Recordings/` (one sub-directory per backend).
    public var recordings: URL

    /// Options with the recordings directory.
    public init(recordings: URL = URL(fileURLWithPath: "Recordings", isDirectory: true)) {
      self.recordings = recordings
    }
  }

  /// The harnesses that run offline, in report order: `["fake"]`.
  public static let offlineDefaultNames: [String] = ["fake"]

  /// Every name ``named(_:options:)`` accepts.
  public static var knownNames: [String] { offlineDefaultNames }

  /// The harness called `name`.
  /// - Throws: ``BackendConfigurationError`` `.unknownBackend` listing ``knownNames``.
  public static func named(_ name: String, options: Options = Options()) throws
    -> any ContractHarness
  {
    switch name {
    case "fake":
      return FakeHarness()
    default:
      throw BackendConfigurationError(
        .unknownBackend, setting: "--backends",
        reason: "no contract harness \"\(name)\"; known: "
          + knownNames.joined(separator: ", "))
    }
  }

  /// The harnesses named in a comma-separated list (`"fake,firebase-replay"`); blanks are
  /// ignored and order is kept.
  /// - Throws: ``BackendConfigurationError`` for an unknown name or an empty list.
  public static func list(_ names: String, options: Options = Options()) throws
    -> [any ContractHarness]
  {
    let parts = names.split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces)
    }.filter { !$0.isEmpty }
    guard !parts.isEmpty else {
      throw BackendConfigurationError(
        .invalidSetting, setting: "--backends",
        reason: "empty list; known: " + knownNames.joined(separator: ", "))
    }
    return try parts.map { try named($0, options: options) }
  }

  /// The offline harnesses (``offlineDefaultNames``).
  public static func offlineDefaults(options: Options = Options()) -> [any ContractHarness] {
    offlineDefaultNames.compactMap { try? named($0, options: options) }
  }
}
