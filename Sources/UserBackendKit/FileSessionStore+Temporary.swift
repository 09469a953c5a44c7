import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension FileSessionStore {
  /// How long a temporary file without a live writer's process ID in its name is kept:
  /// 10 minutes (a write takes milliseconds; older names carried no process ID).
  static let temporaryFileGrace: TimeInterval = 600

  /// The name every temporary copy of this session file starts with:
  /// `.<name>.session.json.`, followed by `<pid>.<UUID>.tmp`.
  var temporaryPrefix: String { ".\(fileURL.lastPathComponent)." }

  /// Removes this session file's temporary copies whose writer is gone: the process named
  /// in the file name no longer exists, or (a name without a process ID, from an older
  /// version, or a reused ID) the file is older than ``temporaryFileGrace``. A writer
  /// killed between creating its copy and renaming it leaves one behind, with tokens in
  /// it (mode 0600); this is where it goes. Best effort: a file that cannot be examined or
  /// removed stays, silently (the save itself does not depend on it).
  func removeStaleTemporaryFiles() {
    let directory = fileURL.deletingLastPathComponent()
    let prefix = temporaryPrefix
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
    else { return }
    let now = Date()
    for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
      let path = directory.appendingPathComponent(name).path
      if Self.isStale(name: name, prefix: prefix, path: path, now: now) { unlink(path) }
    }
  }

  /// Whether the temporary file `name` at `path` belongs to no running writer.
  static func isStale(name: String, prefix: String, path: String, now: Date) -> Bool {
    let rest = name.dropFirst(prefix.count)
    if let dot = rest.firstIndex(of: "."), let pid = pid_t(rest[..<dot]), pid > 0 {
      if pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH { return true }
    }
    guard
      let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[
        .modificationDate] as? Date
    else { return false }
    return now.timeIntervalSince(modified) > temporaryFileGrace
  }
}
