import Foundation

/// How a cassette-backed test talks to a backend (docs/cassettes.md §7).
///
/// - `replay`: the default; answers only from the cassette and never touches the network.
/// - `record`: live; rewrites the cassette from scratch when the run passes.
/// - `recordMissing`: replays when the cassette exists, records it otherwise.
/// - `live`: passes every request through; writes nothing.
/// - `verify`: live; compares the shape of each live response (JSON keys and value types)
///   with the recorded one and reports drift.
public enum ReplayMode: String, Sendable, Hashable, CaseIterable, Codable {
  /// Answer from the cassette only.
  case replay
  /// Live, rewriting the cassette.
  case record
  /// Replay when the cassette exists, record otherwise.
  case recordMissing
  /// Live pass-through.
  case live
  /// Live, comparing response shapes with the cassette.
  case verify

  /// The environment variable that selects the mode: `BAAS_REPLAY_MODE`.
  public static let environmentVariable = "BAAS_REPLAY_MODE"

  /// Errors reading a mode name.
  public enum ParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text names no mode.
    case unknownMode(String)

    /// Names the bad value and the accepted ones.
    public var description: String {
      switch self {
      case .unknownMode(let text):
        "unknown replay mode \"\(text)\" (expected replay, record, recordMissing, live or verify)"
      }
    }
  }

  /// Reads a mode name, ignoring case, `-` and `_` (`record-missing`, `RECORD_MISSING`
  /// and `recordMissing` are the same).
  /// - Throws: ``ParseError/unknownMode(_:)`` naming the text.
  public init(parsing text: String) throws {
    let folded = text.trimmingCharacters(in: .whitespaces).lowercased()
      .replacingOccurrences(of: "-", with: "").replacingOccurrences(of: "_", with: "")
    guard let mode = Self.allCases.first(where: { $0.rawValue.lowercased() == folded }) else {
      throw ParseError.unknownMode(text)
    }
    self = mode
  }

  /// The mode named by `BAAS_REPLAY_MODE` in `environment` (the process environment by
  /// default); `.replay` when the variable is unset, empty or not a mode name, so a typo
  /// can never make a run touch the network.
  public static func fromEnvironment(
    _ environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> ReplayMode {
    guard let text = environment[environmentVariable], !text.isEmpty,
      let mode = try? ReplayMode(parsing: text)
    else { return .replay }
    return mode
  }
}
