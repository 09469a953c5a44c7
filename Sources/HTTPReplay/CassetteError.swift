import Foundation

/// Why a cassette could not be read, written or used. Messages name files, fields and
/// leak locations, never a secret value.
public enum CassetteError: Error, Sendable, Hashable, CustomStringConvertible {
  /// No cassette at the path (replay mode needs one).
  case notFound(path: String)
  /// The file could not be read or parsed as JSON.
  case unreadable(path: String, reason: String)
  /// A required field is missing or has the wrong type.
  case malformed(field: String, reason: String)
  /// The file is HAR but has no `log._replay` block.
  case missingReplayBlock
  /// `_replay.format` is newer than this library understands.
  case unsupportedFormat(Int)
  /// The leak scan found secrets; nothing was written.
  case leakDetected([LeakFinding])
  /// Writing the file failed; any previous file is unchanged.
  case writeFailed(path: String, reason: String)
  /// The cassette does not pass `cassette lint`: one line per finding (field path and what
  /// is wrong, never the value). Nothing was written.
  case lintFailed([String])
  /// The encoded cassette would be `size` bytes, more than the `limit` the loader reads
  /// (64 MiB); nothing was written or scanned.
  case tooLarge(size: Int, limit: Int)
  /// Recording stopped: with the interaction at `field` (`log.entries[3].response.content`,
  /// counted in the order requests reached the recorder) the cassette would be one the
  /// loader refuses (a body that decodes past 10 MiB, bodies past 64 MiB in total, a file
  /// past 64 MiB). Nothing is written, and every later send is refused.
  case tooLargeToRecord(field: String, reason: String)

  /// One line (plus one line per finding): ``lines`` joined.
  public var description: String { lines.joined(separator: "\n") }

  /// The message as lines: one, or for a refusal with findings a heading and one line per
  /// finding (`  - …`). Findings carry text from the file (field paths, part names), so a
  /// terminal printer escapes each line on its own and keeps the breaks between them.
  public var lines: [String] {
    switch self {
    case .leakDetected(let findings):
      ["refusing to write the cassette: the leak scan found \(findings.count) secret(s)"]
        + findings.map { "  - \($0)" }
    case .lintFailed(let findings):
      ["refusing to write the cassette: \(findings.count) lint finding(s)"]
        + findings.map { "  - \($0)" }
    default: [heading]
    }
  }

  /// The message of a case without findings.
  private var heading: String {
    switch self {
    case .notFound(let path): "no cassette at \(path)"
    case .unreadable(let path, let reason): "cannot read cassette \(path): \(reason)"
    case .malformed(let field, let reason): "malformed cassette: \(field): \(reason)"
    case .missingReplayBlock: "malformed cassette: log._replay is missing"
    case .unsupportedFormat(let format):
      "cassette format \(format) is newer than this library (\(ReplayMetadata.currentFormat))"
    case .leakDetected, .lintFailed: lines[0]
    case .writeFailed(let path, let reason): "cannot write cassette \(path): \(reason)"
    case .tooLargeToRecord(let field, let reason):
      "refusing to record \(field): \(reason); a cassette replay cannot load is never "
        + "written (an existing one stays as it is)"
    case .tooLarge(let size, let limit):
      "refusing to write the cassette: it would be \(size) bytes, more than the "
        + "\(limit >> 20) MiB (\(limit) bytes) a cassette may be to load"
    }
  }
}
