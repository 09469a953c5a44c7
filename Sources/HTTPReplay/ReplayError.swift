import BackendHTTP
import Foundation

/// One field that differs between a recorded request and a live one. Values are the
/// redacted forms (aliases), shortened to 80 characters.
public struct FieldDifference: Sendable, Hashable, CustomStringConvertible {
  /// The field: `method`, `host`, `path`, `query.<name>`, `body.<json.path>`,
  /// `header.<name>`.
  public var field: String
  /// The recorded value, or `nil` when the recorded request lacks the field.
  public var recorded: String?
  /// The live value, or `nil` when the live request lacks the field.
  public var live: String?

  /// A difference (values shortened to 80 characters).
  public init(field: String, recorded: String?, live: String?) {
    self.field = field
    self.recorded = recorded.map(Self.shorten)
    self.live = live.map(Self.shorten)
  }

  static func shorten(_ text: String) -> String {
    text.count <= 80 ? text : String(text.prefix(77)) + "..."
  }

  /// `body.password: recorded "<PASSWORD_1>", live "<PASSWORD_2>"`.
  public var description: String {
    "\(field): recorded \(recorded.map { "\"\($0)\"" } ?? "(absent)"), "
      + "live \(live.map { "\"\($0)\"" } ?? "(absent)")"
  }
}

/// A recorded entry compared with a live request.
public struct EntryDifference: Sendable, Hashable, CustomStringConvertible {
  /// The entry's index in the cassette.
  public var entryIndex: Int
  /// `POST host/path` of the recorded request.
  public var summary: String
  /// The differing fields.
  public var differences: [FieldDifference]

  /// The entry's place in the file, `log.entries[3]`.
  public var location: String { CassetteLocation.entry(entryIndex) }

  /// `log.entries[3] POST host/path` followed by one line per differing field.
  public var description: String {
    (["\(location) \(summary) (\(differences.count) difference(s))"]
      + differences.map { "      \($0)" }).joined(separator: "\n")
  }
}

/// Errors of replay and verify runs. Messages show only redacted values, so the type
/// adopts `SecretFreeDescription`: an adapter on a ``ReplayTransport`` reports a mismatch
/// as `.network` with this description (the nearest entries and differing fields).
public enum ReplayError: Error, Sendable, Hashable, CustomStringConvertible,
  SecretFreeDescription
{
  /// No unused recorded entry matches the request. Lists the request, its match key and
  /// up to three nearest unused entries with field-by-field differences.
  case noMatch(request: String, key: String, nearest: [EntryDifference])
  /// Recorded entries were never requested (`log.entries[N]` and `METHOD host/path` each).
  case unusedEntries([EntryDifference])
  /// Live responses differ in shape from the recorded ones (verify mode).
  case drift([ShapeDrift])
  /// The cassette's entries could not be decoded.
  case badCassette(CassetteError)

  /// A multi-line explanation.
  public var description: String {
    switch self {
    case .noMatch(let request, let key, let nearest):
      var lines = [
        "no unused recorded interaction matches \(request)",
        "  match key: \(key.replacingOccurrences(of: "\u{1F}", with: " | "))",
      ]
      if nearest.isEmpty {
        lines.append("  every recorded interaction has been used")
      } else {
        lines.append("  nearest unused entries:")
        lines += nearest.map { "    \($0)" }
      }
      return lines.joined(separator: "\n")
    case .unusedEntries(let entries):
      return "\(entries.count) recorded interaction(s) never requested:\n"
        + entries.map { "  \($0.location) \($0.summary)" }.joined(separator: "\n")
    case .drift(let drifts):
      return "\(drifts.count) response shape difference(s) from the cassette:\n"
        + drifts.map { "  \($0)" }.joined(separator: "\n")
    case .badCassette(let error):
      return error.description
    }
  }
}
