import Foundation
import UserBackendContracts
import UserBackends

/// The registry of contract harnesses `baas verify` and the contract tests run: one place
/// that maps a harness name to a ``UserBackendContracts/ContractHarness``.
///
/// Offline harnesses (no network, no credentials) are the defaults; `firebase-live` and
/// `ncmb-live` join them when their credentials are configured (see
/// ``defaultNames(options:)``). To add one, add its name to ``offlineDefaultNames`` (or
/// ``offlineOnRequestNames``) and a case to ``named(_:options:)``.
public enum ContractHarnesses {
  /// Where harnesses find their inputs.
  public struct Options: Sendable, Hashable {
    /// The directory of recorded cassettes, `Recordings/` (one sub-directory per backend).
    public var recordings: URL
    /// The environment variables live harnesses read their credentials from
    /// (``BackendConfiguration/resolve(environment:configFile:backend:)``).
    public var environment: [String: String]

    /// Options with the recordings directory and the environment (default: this
    /// process's).
    public init(
      recordings: URL = URL(fileURLWithPath: "Recordings", isDirectory: true),
      environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
      self.recordings = recordings
      self.environment = environment
    }
  }

  /// The harnesses that run offline by default, in report order: `fake`,
  /// `firebase-emulator`, `ncmb-emulator`, `firebase-replay`, `ncmb-replay`.
  public static let offlineDefaultNames: [String] = [
    "fake", "firebase-emulator", "ncmb-emulator", "firebase-replay", "ncmb-replay",
  ]

  /// Offline harnesses run only when asked for: the emulators over loopback HTTP.
  public static let offlineOnRequestNames: [String] = [
    "firebase-emulator-http", "ncmb-emulator-http",
  ]

  /// The harnesses against real servers; they need credentials.
  public static let liveNames: [String] = ["firebase-live", "ncmb-live"]

  /// Every name ``named(_:options:)`` accepts.
  public static var knownNames: [String] {
    offlineDefaultNames + offlineOnRequestNames + liveNames
  }

  /// The default harness names: ``offlineDefaultNames``, then each of ``liveNames`` whose
  /// credentials `options.environment` configures (`FIREBASE_API_KEY`;
  /// `NCMB_APPLICATION_KEY` and `NCMB_CLIENT_KEY`).
  public static func defaultNames(options: Options = Options()) -> [String] {
    offlineDefaultNames + liveNames.filter { (try? named($0, options: options)) != nil }
  }

  /// The harness called `name`.
  /// - Throws: ``BackendConfigurationError`` `.unknownBackend` listing ``knownNames``.
  public static func named(_ name: String, options: Options = Options()) throws
    -> any ContractHarness
  {
    switch name {
    case "fake":
      return FakeHarness()
    case "firebase-emulator": return EmulatorHarness(backend: .firebase)
    case "ncmb-emulator": return EmulatorHarness(backend: .ncmb)
    case "firebase-emulator-http": return EmulatorHarness(backend: .firebase, route: .loopback)
    case "ncmb-emulator-http": return EmulatorHarness(backend: .ncmb, route: .loopback)
    case "firebase-replay": return ReplayHarness(backend: .firebase, recordings: options.recordings)
    case "ncmb-replay": return ReplayHarness(backend: .ncmb, recordings: options.recordings)
    case "firebase-live", "ncmb-live":
      let backend = String(name.dropLast("-live".count))
      return try LiveHarness(
        configuration: try BackendConfiguration.resolve(
          environment: options.environment, backend: backend))
    default:
      throw BackendConfigurationError(
        .unknownBackend, setting: "--backends",
        reason: "no contract harness \"\(name)\"; known: "
          + knownNames.joined(separator: ", "))
    }
  }

  /// The harnesses named in a comma-separated list (`"fake,firebase-replay"`); blanks are
  /// ignored, a repeated name counts once and the order of first mention is kept.
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
    var seen: Set<String> = []
    return try parts.filter { seen.insert($0).inserted }.map { try named($0, options: options) }
  }

  /// The offline harnesses (``offlineDefaultNames``).
  public static func offlineDefaults(options: Options = Options()) -> [any ContractHarness] {
    offlineDefaultNames.compactMap { try? named($0, options: options) }
  }

  /// The default harnesses (``defaultNames(options:)``): the offline ones plus the live
  /// ones whose credentials are configured.
  public static func defaults(options: Options = Options()) -> [any ContractHarness] {
    defaultNames(options: options).compactMap { try? named($0, options: options) }
  }
}
