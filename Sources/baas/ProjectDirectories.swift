import Foundation

/// Finds the repository's `Contracts/` and `Recordings/` when the option is not given, so
/// `baas verify` and `baas record` also work from a subdirectory.
enum ProjectDirectories {
  /// `option` when given; else `name` in the current directory when it exists there; else
  /// `name` in the nearest ancestor of the current directory that contains `Contracts/`;
  /// else `name` in the current directory (which does not exist: the caller reports it).
  static func resolve(_ option: String?, default name: String) -> URL {
    if let option { return URL(fileURLWithPath: option, isDirectory: true).standardizedFileURL }
    let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    let here = current.appendingPathComponent(name, isDirectory: true)
    if isDirectory(here) { return here }
    var directory = current
    while directory.path != "/" {
      directory = directory.deletingLastPathComponent()
      if isDirectory(directory.appendingPathComponent("Contracts", isDirectory: true)) {
        return directory.appendingPathComponent(name, isDirectory: true)
      }
    }
    return here
  }

  /// `true` when `url` is an existing directory.
  static func isDirectory(_ url: URL) -> Bool {
    var flag: ObjCBool = false
    return FileManager.default.fileExists(atPath: url.path, isDirectory: &flag) && flag.boolValue
  }

  /// The contracts directory (`--contracts`, else found as above).
  /// - Throws: ``UsageError`` naming the directory when it does not exist.
  static func contracts(_ option: String?, command: String) throws -> URL {
    let directory = resolve(option, default: "Contracts")
    guard isDirectory(directory) else {
      throw UsageError(
        "no contracts directory at \(directory.path): run baas in the repository (or below "
          + "it) or pass --contracts DIR", command: command)
    }
    return directory
  }
}
