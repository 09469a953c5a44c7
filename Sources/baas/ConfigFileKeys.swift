import Foundation
import UserBackendKit
import UserBackends

/// The config file's JSON read by the document reader too (``DocumentJSONReader``, which
/// refuses a key that appears twice in an object), so `{"backend":"fake","backend":"ncmb"}`
/// is an error naming the key rather than "the first one wins" (what `JSONDecoder` does).
/// Everything else about the file (missing, unreadable, wrong shape) is left to
/// `BackendConfiguration.resolve`, which reports it.
enum ConfigFileKeys {
  /// Checks the file `configOption` (else `BAAS_CONFIG`) names.
  /// - Throws: `BackendConfigurationError` `.unreadableFile` naming the file and the key.
  static func check(configOption: String?, environment: [String: String]) throws {
    var variable = environment[ConfigurationVariable.config]
    if variable?.isEmpty == true || variable == RawInput.undecodable { variable = nil }
    guard var path = configOption ?? variable, PathSetting.problem(path) == nil else { return }
    if path == "~" || path.hasPrefix("~/") {
      guard let home = environment["HOME"], PathSetting.problem(home) == nil else { return }
      path = home + path.dropFirst()
    }
    guard
      let data = try? BoundedFileRead.data(
        contentsOf: URL(fileURLWithPath: path), limit: BoundedFileRead.smallFileLimit),
      let text = String(data: data, encoding: .utf8),
      case .unusable(let reason) = DocumentJSONReader.read(text)
    else { return }
    throw BackendConfigurationError(
      .unreadableFile, setting: "config file \(path)", reason: reason)
  }
}
